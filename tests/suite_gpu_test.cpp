// GPU test of the suite's own variants (ctest label gpu): every case of ours (a variant named `fast...`) at
// the quick preset's sizes is built, run once and checked by its fixture against the CPU reference on fresh
// random input, as a run checks it before timing. Without a usable device the test skips and says why.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cudabench/cuda_handles.hpp"
#include "cudabench/registry.hpp"
#include "measure/device_query.hpp"

TEST(Gpu, OurVariantsAgreeWithTheCpu) {
  const cudabench::device_info device = cudabench::query_device(0);
  if (!device.available) GTEST_SKIP() << device.unavailable_reason;
  const cudabench::suite s = cudabench::build_suite(cudabench::preset_by_name("quick"));
  std::set<std::string> checked;
  for (const cudabench::case_def& c : s.cases) {
    if (c.on != cudabench::where::gpu || c.variant.rfind("fast", 0) != 0) continue;
    SCOPED_TRACE(c.name());
    cudabench::stream stream;
    const auto f = c.make();
    CB_CHECK(cudaDeviceSynchronize());  // set-up's work on the legacy stream, as the case driver waits for it
    f->prepare(stream);
    f->run(stream);
    CB_CHECK(cudaStreamSynchronize(stream));
    EXPECT_EQ(f->verify(), "");
    checked.insert(c.family + "/" + c.variant);
  }
  // Every family's variant of ours is among them (a renamed or unregistered one would go unchecked).
  for (const char* v : {"conv2d/fast", "histogram/fast", "reduce/fast", "matmul/fast", "image/fast_chunks", "image/fast_graph",
                        "image/fast_mapped"})
    EXPECT_TRUE(checked.count(v)) << v << " was not in the quick preset";
}
