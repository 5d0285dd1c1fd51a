// Grid-stride fills of seeded inputs on the device, value for value those of the host fills.
#include "kernels/device_fill.cuh"

#include "support/fill_kernel.cuh"

namespace kernels {

void fill_uniform_device(float* d, std::size_t n, float lo, float hi, std::uint64_t seed, cudaStream_t s) {
  fill::launch(d, n, fill::uniform_value{seed, lo, hi}, s, "launch fill_uniform_device");
}

void fill_ints_device(int* d, std::size_t n, int lo, int hi_exclusive, std::uint64_t seed, cudaStream_t s) {
  fill::launch(d, n, fill::int_value{seed, lo, hi_exclusive}, s, "launch fill_ints_device");
}

void fill_bytes_device(std::uint8_t* d, std::size_t n, std::uint64_t seed, cudaStream_t s) {
  fill::launch(d, n, fill::byte_value{seed}, s, "launch fill_bytes_device");
}

}  // namespace kernels
