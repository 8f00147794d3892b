#!/bin/sh
# `make install PREFIX=...` as a user outside the tree sees it: install into a
# fresh prefix, build a bare-metal program and a kernel with the documented
# one-line compiler command (pkg-config) and a program through the CMake
# package, then run them with the installed simulator from another directory.
# Arguments: BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/elsewhere"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
test -x "$prefix/bin/accel-vp"
test -f "$prefix/share/doc/accel-vp/bring-up.md"
test -f "$prefix/lib/libaccelvp-acceldev.so"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cp "$src/sw/device/examples/hello.c" "$src/sw/device/examples/kernel_add.c" "$work/elsewhere/"
cd "$work/elsewhere"
# The one-line commands of docs/device-sdk.md.
riscv64-unknown-elf-gcc -O2 hello.c $(pkg-config --cflags --libs accelvp-sdk) -o hello.elf
riscv64-unknown-elf-gcc -O2 kernel_add.c $(pkg-config --cflags --libs accelvp-kernel) -o kernel_add.elf
riscv64-unknown-elf-readelf -h kernel_add.elf | grep -q "RISC-V"
"$prefix/bin/accel-vp" --no-progress -o out run --elf hello.elf > run.log
grep -q "hello from hart 0" run.log
grep -q '"ending": "finished"' out/manifest.json
# A shipped configuration by name: the installed file.
"$prefix/bin/accel-vp" --no-progress --config refsi-m1 -o out_m1 run --elf hello.elf > run_m1.log
grep -q "\"config_file\": \"$prefix/share/accel-vp/configs/refsi-m1.yaml\"" out_m1/manifest.json
# The CMake package.
mkdir -p pkg && cat > pkg/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(outside NONE)
find_package(accelvp-sdk REQUIRED)
accelvp_sdk_add_program(hello SOURCES ../hello.c)
accelvp_sdk_add_program(kernel_add SOURCES ../kernel_add.c KERNEL)
CM
cmake -S pkg -B pkg/build -DCMAKE_PREFIX_PATH="$prefix" > cmake.log
cmake --build pkg/build > build.log
"$prefix/bin/accel-vp" --no-progress -o out2 run --elf pkg/build/hello.elf > run2.log
grep -q "hello from hart 0" run2.log
echo "install OK: $prefix"
