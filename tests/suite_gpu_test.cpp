// GPU test of the suite (ctest label gpu): every case of every registered family at the quick preset's sizes is
// built, run once and checked by its fixture against its CPU reference on fresh random input, as a run checks
// it before timing; a new family is checked here without a line of its own. A case its fixture skips (cuDNN
// absent, too little memory) is reported. Without a usable device the test skips and says why.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>

#include "cudabench/cuda_handles.hpp"
#include "cudabench/registry.hpp"
#include "measure/device_query.hpp"

TEST(Gpu, EveryCaseAgreesWithItsReference) {
  const cudabench::device_info device = cudabench::query_device(0);
  if (!device.available) GTEST_SKIP() << device.unavailable_reason;
  const cudabench::suite s = cudabench::build_suite(cudabench::preset_by_name("quick"));
  std::set<std::string> checked;
  for (const cudabench::case_def& c : s.cases) {
    SCOPED_TRACE(c.name());
    cudabench::stream stream;
    std::unique_ptr<cudabench::fixture> f;
    try {
      f = c.make();
    } catch (const cudabench::skip_case& e) {
      std::printf("skipped %s: %s\n", c.name().c_str(), e.what());
      continue;
    }
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
