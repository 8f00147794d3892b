#!/usr/bin/env bash
# Installs the Debian packages accel-vp needs, only those that are missing.
# Idempotent: when everything is present it does nothing and needs no network.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build ccache pkg-config git
  libsystemc-dev libgtest-dev libgmock-dev
  nlohmann-json3-dev libyaml-cpp-dev libcli11-dev
  verilator
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
  qemu-user qemu-system-misc gdb-multiarch
  libfdt-dev device-tree-compiler opensbi u-boot-qemu
  clang libclang-rt-14-dev python3 libelf-dev libdw-dev
  chromium python3-pil
  slurmctld slurmd slurm-client
  linux-source-6.1 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross bc flex bison libssl-dev cpio xz-utils
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then exit 0; fi
echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || true
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
