#!/usr/bin/env bash
# Runs Codeplay's CLIK examples on hal_refsi (RefSi M1) against accel-vp's
# librefsidrv, as a RefSi user would (docs/refsidrv.md, "Running Codeplay's
# CLIK"). Fetches nothing: give it your checkouts.
#
#   scripts/refsi-clik-check.sh OCK_DIR SPIKE_DIR [WORK_DIR]
#
# OCK_DIR: a checkout of oneapi-construction-kit (clik/, hal/,
# examples/refsi/hal_refsi); SPIKE_DIR: riscv-isa-sim, branch refsi_additions
# (hal_refsi's ELF loader uses its headers); WORK_DIR (default
# build/refsi-clik): where librefsidrv is installed and CLIK built. Needs
# accel-vp and librefsidrv built in ./build (make build), Debian's clang and
# lld (device code, --target=riscv64). Prints PASS/FAIL per example; exits 1
# when one failed.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,14p' "$0"; exit 2; }
ock=$(realpath "$1")
spike=$(realpath "$2")
work=$(realpath -m "${3:-build/refsi-clik}")
root=$(cd "$(dirname "$0")/.." && pwd)
vp=$root/build/accel-vp
hal=$ock/examples/refsi/hal_refsi
for f in "$vp" "$ock/clik/CMakeLists.txt" "$hal/CMakeLists.txt" "$spike/riscv/decode.h"; do
  [ -e "$f" ] || { echo "refsi-clik-check: $f not found" >&2; exit 2; }
done

# librefsidrv as a user installs it.
mkdir -p "$work"
cmake --install "$root/build" --prefix "$work/prefix" --component host-libraries > /dev/null

# The HAL wrapper: the `refsidrv` target first (so hal_refsi's external/
# skips Codeplay's driver), then hal_refsi unmodified. hal_refsi finds its
# device headers at <refsidrv SOURCE_DIR>/../include/device.
wrap=$work/hal_refsi
mkdir -p "$wrap/refsidrv/source" "$wrap/refsidrv/include"
ln -sfn "$hal/external/refsidrv/include/device" "$wrap/refsidrv/include/device"
cat > "$wrap/refsidrv/source/CMakeLists.txt" <<'EOF'
add_library(refsidrv INTERFACE)
target_link_libraries(refsidrv INTERFACE refsidrv::refsidrv)
EOF
cat > "$wrap/CMakeLists.txt" <<EOF
find_package(refsidrv REQUIRED CONFIG PATHS "$work/prefix" NO_DEFAULT_PATH)
add_subdirectory(refsidrv/source)
# Codeplay's ELF loader and memory-device helpers, which hal_refsi links, with
# riscv-isa-sim's headers (config.h from its configure step; nothing of it built).
set(cp_drv "$hal/external/refsidrv")
add_subdirectory("$spike" riscv-isa-sim EXCLUDE_FROM_ALL)
add_library(refsi_common STATIC \${cp_drv}/source/common/elf_loader.cpp \${cp_drv}/source/common/common_devices.cpp)
set_target_properties(refsi_common PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(refsi_common PUBLIC "$wrap/refsidrv/include" \${cp_drv}/include/common
  "$spike" "$spike/riscv" "$spike/fesvr" "$spike/softfloat" \${CMAKE_CURRENT_BINARY_DIR}/riscv-isa-sim)
set_property(GLOBAL PROPERTY REFSIDRV_M1_ISA RV64GC)
set(HAL_REFSI_SOC M1 CACHE STRING "" FORCE)
add_subdirectory("$hal" hal_refsi_build)
EOF

cmake -S "$ock/clik" -B "$work/clik" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLIK_HAL_NAME=refsi \
  -DCLIK_EXTERNAL_HAL_DIR="$wrap" -DRISCV_TOOLCHAIN_DIR=/usr > "$work/configure.log"
cmake --build "$work/clik" -j "$(nproc)" > "$work/build.log"

# What each example shows beyond its exit status: hello prints from all 4
# harts, blur (which validates nothing itself) matches a host reference.
check_output() {
  case $1 in
    hello*) [ "$(grep -o '^\[hart[0-3]\] Hello from' "$work/$1.log" | sort -u | wc -l)" -eq 4 ] ;;
    blur) python3 - "$ock/clik/examples/clik_async/blur/blur.cpp" "$work/blur.log" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
body = src[src.index("input[WIDTH * HEIGHT] = {"):]
px = [int(v) for v in re.findall(r"\d+", body[body.index("{") + 1:body.index("};")])]
W, H = 15, 12
ext = [None] * (H + 2)
for y in range(H):
    row = px[y * W:(y + 1) * W]
    ext[y + 1] = [row[0]] + row + [row[-1]]
ext[0], ext[H + 1] = ext[1], ext[H]
want = [[sum(ext[y + i][x + j] for i in range(3) for j in range(3)) // 9 for x in range(W)] for y in range(H)]
got = [[int(v) for v in l.split()] for l in open(sys.argv[2]) if l.strip() and re.fullmatch(r"[\s\d]+", l)]
sys.exit(0 if got == want else 1)
PY
    ;;
    *) grep -q "Results validated successfully" "$work/$1.log" ;;
  esac
}

failed=0
for ex in copy_buffer hello vector_add copy_buffer_async hello_async vector_add_async blur concatenate_dma \
          matrix_multiply ternary_async vector_add_wfv; do
  bin=$work/clik/bin/$ex
  if [ ! -x "$bin" ]; then
    echo "MISSING $ex"
    failed=1
    continue
  fi
  if (cd "$work/clik/bin" && LD_LIBRARY_PATH="$work/prefix/lib" "$vp" --no-progress --config refsi-m1 \
        -o "$work/out/$ex" exec -- "$bin") > "$work/$ex.log" 2>&1 && check_output "$ex"; then
    echo "PASS $ex"
  else
    echo "FAIL $ex (exit $?, $work/$ex.log)"
    failed=1
  fi
done
exit $failed
