#!/usr/bin/env bash
# Packs what a GPU machine without packages needs into .devlibs/ (ignored by git): the binaries in the
# build's layout, the external example built against the installed package, and the shared libraries
# Debian provides but that machine lacks (Google Benchmark, fmt, RE2 and the Abseil libraries a newer RE2
# links); and README.md's project, built as written and bundled by cudabench-pack. Run after ci/build.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CUDABENCH_BUILD_DIR:-$root/build}"
out="$root/.devlibs"
rm -rf "$out"
mkdir -p "$out/bench" "$out/app" "$out/tests" "$out/lib" "$out/external"
cp "$build/bench/cudabench" "$out/bench/"
cp "$build/app/cudabench-report" "$out/app/"
cp "$build/tests/gpu_tests" "$build/tests/suite_gpu_tests" "$build/tests/unit_tests" "$build/tests/fault_suite" "$build/tests/pretend_devices" "$out/tests/"
cp "$build/tests/libnvtx_recorder.so" "$out/lib/"
# The external example, as a user builds it: against the package installed into a prefix.
cmake --install "$build" --prefix "$build/pack-prefix" >/dev/null
cmake -S "$root/examples/external" -B "$build/pack-external" -DCMAKE_PREFIX_PATH="$build/pack-prefix" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" >/dev/null
cmake --build "$build/pack-external" -j "$(nproc)" >/dev/null
cp "$build/pack-external/saxpy_bench" "$out/external/"
# README.md's project block as written (the example's sources as its my_kernels.cu / my_bench.cpp), bundled by
# cudabench-pack into bundle/: it runs there with the driver and the CUDA toolkit only (device_check.sh bundle).
mine="$build/pack-readme"
rm -rf "$mine" && mkdir -p "$mine"
awk '$0 == "<!-- readme-snippet:end -->" {on = 0} on && !/^```/ {print} $0 == "<!-- readme-snippet:begin -->" {on = 1}' \
    "$root/README.md" >"$mine/CMakeLists.txt"
cp "$root/examples/external/saxpy.cu" "$mine/my_kernels.cu" && cp "$root/examples/external/saxpy_bench.cpp" "$mine/my_bench.cpp"
cp "$root/examples/external/saxpy.cuh" "$mine/"
cmake -S "$mine" -B "$mine/build" -DCMAKE_PREFIX_PATH="$build/pack-prefix" -DCMAKE_CUDA_COMPILER="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" >/dev/null
cmake --build "$mine/build" -j "$(nproc)" >/dev/null
"$build/pack-prefix/bin/cudabench-pack" "$mine/build/mybench" "$out/bundle"
for lib in $(ldd "$build/bench/cudabench" | awk '/libbenchmark|libfmt|libre2|libabsl/ {print $3}'); do cp -L "$lib" "$out/lib/"; done
# RE2 for a build on that machine (validation/device_gb18.sh): headers, library and a pkg-config file
# in re2/, found with PKG_CONFIG_PATH=.devlibs/re2/lib/pkgconfig.
mkdir -p "$out/re2/include" "$out/re2/lib/pkgconfig"
cp -r /usr/include/re2 "$out/re2/include/"
cp -L "$(pkg-config --variable=libdir re2)"/libre2.so "$out/re2/lib/"
printf '%s\n' 'prefix=${pcfiledir}/../..' 'Name: re2' 'Description: RE2, carried by device_pack.sh' 'Version: 0.0.0' \
  'Cflags: -pthread -I${prefix}/include' 'Libs: -pthread -L${prefix}/lib -lre2' >"$out/re2/lib/pkgconfig/re2.pc"
# Nsight Systems' importer on the H100 machine lacks libdw.so.1: Debian's libdw1 and libelf1, unpacked, go
# into nsys-lib/ (put first on LD_LIBRARY_PATH for nsys only; see docs/profiling.md).
mkdir -p "$out/nsys-lib"
debs=$(mktemp -d)
if (cd "$debs" && apt-get download libdw1 libelf1 >/dev/null 2>&1); then
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$debs/root"; done
  cp -L "$debs"/root/usr/lib/x86_64-linux-gnu/libdw.so.1 "$debs"/root/usr/lib/x86_64-linux-gnu/libelf.so.1 "$out/nsys-lib/"
else
  echo "device_pack: apt-get download libdw1 libelf1 failed: nsys on the GPU machine will only write .qdstrm" >&2
fi
rm -rf "$debs"
# git for a bisect there (validation/device_bisect.sh) where that machine has none: Debian's binary alone,
# in git/bin (its builtins need no helper programs for a local clone, worktrees and builds).
mkdir -p "$out/git/bin"
debs=$(mktemp -d)
if (cd "$debs" && apt-get download git >/dev/null 2>&1); then
  dpkg -x "$debs"/git_*.deb "$debs/root" && cp "$debs/root/usr/bin/git" "$out/git/bin/"
else
  echo "device_pack: apt-get download git failed: a bisect there needs that machine's own git" >&2
fi
rm -rf "$debs"
git -C "$root" rev-parse HEAD >"$out/revision" 2>/dev/null || echo unknown >"$out/revision"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then echo 1 >"$out/dirty"; else echo 0 >"$out/dirty"; fi
du -sh "$out"
