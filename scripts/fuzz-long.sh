#!/usr/bin/env bash
# The long fuzzing run (`make fuzz-long`): every libFuzzer target of the
# build (BUILD/tests/fuzz/fuzz_targets.txt) for SECONDS each, one after the
# other, from its stored seed corpus (tests/fuzz/corpus/<name>) plus what
# earlier runs found (BUILD/tests/fuzz/corpus_<name>). Crashing inputs land in
# BUILD/tests/fuzz/artifacts/; fix the bug, then add the input to the stored
# corpus so the CI replay keeps it fixed.
# usage: scripts/fuzz-long.sh BUILD_DIR [SECONDS] [TARGET...]
set -u
build=${1:?usage: scripts/fuzz-long.sh BUILD_DIR [SECONDS] [TARGET...]}
seconds=${2:-600}
shift $(( $# >= 2 ? 2 : 1 ))
list=$build/tests/fuzz/fuzz_targets.txt
if [ ! -s "$list" ]; then
  echo "fuzz-long: no fuzz targets in $build (clang++ with libFuzzer is needed)" >&2
  exit 1
fi
failed=()
while read -r name bin max_len corpus; do
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  dirs=("$build/tests/fuzz/corpus_$name")
  [ "$corpus" != "-" ] && dirs+=("$corpus")
  mkdir -p "${dirs[0]}" "$build/tests/fuzz/artifacts"
  echo "fuzz-long: $name for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$seconds" -max_len="$max_len" -detect_leaks=0 -timeout=10 \
      -print_final_stats=1 -artifact_prefix="$build/tests/fuzz/artifacts/" "${dirs[@]}" > "$build/tests/fuzz/$name.long.log" 2>&1; then
    failed+=("$name")
    echo "fuzz-long: $name FAILED (see $build/tests/fuzz/$name.long.log and artifacts/)" >&2
  fi
done < "$list"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-long: failures in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-long: every target ran clean"
