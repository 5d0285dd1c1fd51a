// The error-check family's messages: the call, the status and a source location relative to the project.
#include "cudabench/cuda_check.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string message_of(const char* file) {
  try {
    cudabench::check(cudaErrorInvalidValue, "cudaMemcpy(a, b, n, k)", file, 179);
  } catch (const cudabench::cuda_error& e) {
    return e.what();
  }
  return "";
}

TEST(CudaCheck, NamesTheCallTheStatusAndTheLocation) {
  const std::string m = message_of("measure/measure.cpp");
  EXPECT_NE(m.find("cudaErrorInvalidValue"), std::string::npos) << m;
  EXPECT_NE(m.find("`cudaMemcpy(a, b, n, k)`"), std::string::npos) << m;
  EXPECT_NE(m.find(" at measure/measure.cpp:179"), std::string::npos) << m;
}

TEST(CudaCheck, LocationOfABuildRelativeToItsFolderIsTheProjectPath) {
  EXPECT_NE(message_of("../../measure/measure.cpp").find(" at measure/measure.cpp:179"), std::string::npos);
  EXPECT_NE(message_of("./support/x.cu").find(" at support/x.cu:179"), std::string::npos);
}

TEST(CudaCheck, ThisProjectsFileNamesAreNotTheBuildingMachinesPaths) {
  // What CB_CHECK passes in the project's own code (-ffile-prefix-map, or ccache's relative paths).
  const std::string file = __FILE__;
  EXPECT_NE(file.front(), '/') << file;
  EXPECT_EQ(file.find(CUDABENCH_SOURCE), std::string::npos) << file;
}

}  // namespace
