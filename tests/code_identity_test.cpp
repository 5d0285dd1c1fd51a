// Code identity: the SASS of each kernel read from cubins nvcc made, and a sample's identity from its operations.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "io/errors.hpp"
#include "measure/cubin_sass.hpp"
#include "results/code_identity.hpp"

using namespace cudabench;

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> hashes(const std::string& cubin) {
  std::map<std::string, std::string> m;
  for (auto& [name, hash] : kernel_sass_hashes(cubin)) m[name] = hash;
  return m;
}

device_op kernel(const std::string& name, const std::string& sass, std::uint32_t stream, const std::string& shape = "grid=1x1x1 block=32x1x1 smem=0") {
  device_op o;
  o.what = device_op::kind::kernel;
  o.name = name;
  o.sass = sass;
  o.stream = stream;
  o.shape = shape;
  return o;
}

device_op copy(const std::string& direction, std::uint64_t bytes, std::uint32_t stream) {
  device_op o;
  o.what = device_op::kind::memcpy;
  o.copy = direction;
  o.bytes = bytes;
  o.stream = stream;
  return o;
}
}  // namespace

TEST(CubinSass, EachKernelsSassIsHashedAndAChangedKernelOnlyDiffers) {
  const std::string two = read_file(CUDABENCH_SASS_FIXTURE_2), three = read_file(CUDABENCH_SASS_FIXTURE_3);
  ASSERT_FALSE(two.empty());
  const auto a = hashes(two), b = hashes(three);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_TRUE(a.count("scale") && a.count("copy")) << a.begin()->first;
  EXPECT_EQ(a.at("copy"), b.at("copy"));
  EXPECT_NE(a.at("scale"), b.at("scale"));
  EXPECT_EQ(a.at("scale").size(), 16u);
}

TEST(CubinSass, TheSectionsKeptForLaterHashToWhatALoadHashed) {
  const std::string cubin = read_file(CUDABENCH_SASS_FIXTURE_2);
  const auto sections = kernel_sections(cubin);
  const auto hashed = kernel_sass_hashes(cubin);
  ASSERT_EQ(sections.size(), 2u);
  ASSERT_EQ(sections.size(), hashed.size());
  for (std::size_t i = 0; i < sections.size(); ++i) {
    EXPECT_EQ(sections[i].first, hashed[i].first);
    EXPECT_EQ(sass_hash(std::string(sections[i].second)), hashed[i].second) << "a copy hashes as the image did";
    EXPECT_GE(sections[i].second.data(), cubin.data());
    EXPECT_LE(sections[i].second.data() + sections[i].second.size(), cubin.data() + cubin.size());
    EXPECT_FALSE(sections[i].second.empty());
  }
}

TEST(CubinSass, AnythingButACubinGivesNothingAndReadsNothingOutside) {
  EXPECT_TRUE(kernel_sass_hashes("").empty());
  EXPECT_TRUE(kernel_sass_hashes("not an ELF image at all, but long enough to have a header of sixty-four bytes").empty());
  const std::string cubin = read_file(CUDABENCH_SASS_FIXTURE_2);
  for (std::size_t cut : {std::size_t(64), cubin.size() / 2, cubin.size() - 1})
    EXPECT_LE(kernel_sass_hashes(std::string_view(cubin).substr(0, cut)).size(), 2u);  // never a crash (ASan runs catch reads)
  std::string corrupt = cubin;
  corrupt[0x28] = '\xff';  // a section table far outside the image
  EXPECT_TRUE(kernel_sass_hashes(corrupt).empty());
}

TEST(CodeIdentity, TheDigestCoversKernelsShapesAndCopiesButNotTheirOrderOrStreamNumbers) {
  const code_identity a = identify({kernel("k1", "00000000000000aa", 7), copy("HtoD", 4096, 8), kernel("k2", "00000000000000bb", 8)});
  const code_identity b = identify({copy("HtoD", 4096, 3), kernel("k2", "00000000000000bb", 3), kernel("k1", "00000000000000aa", 2)});
  ASSERT_EQ(a.digest.size(), 16u);
  EXPECT_EQ(a.digest, b.digest);
  EXPECT_EQ(a.streams, 2u);
  EXPECT_NE(identify({kernel("k1", "00000000000000ab", 7), copy("HtoD", 4096, 8), kernel("k2", "00000000000000bb", 8)}).digest, a.digest)
      << "another SASS";
  EXPECT_NE(identify({kernel("k1", "00000000000000aa", 7, "grid=2x1x1 block=32x1x1 smem=0"), copy("HtoD", 4096, 8),
                      kernel("k2", "00000000000000bb", 8)}).digest,
            a.digest)
      << "another launch shape";
  EXPECT_NE(identify({kernel("k1", "00000000000000aa", 7), copy("HtoD", 8192, 8), kernel("k2", "00000000000000bb", 8)}).digest, a.digest)
      << "another copy size";
  EXPECT_NE(identify({kernel("k1", "00000000000000aa", 7), copy("HtoD", 4096, 7), kernel("k2", "00000000000000bb", 7)}).digest, a.digest)
      << "one stream instead of two";
}

// nvcc names a kernel of internal linkage with a hash of its module, which differs between two builds of one
// source (another build directory): the identity leaves it out, so the same code has the same identity.
TEST(CodeIdentity, TheSameCodeBuiltInAnotherDirectoryIsTheSameIdentity) {
  const std::string a = "__nv_static_41__9038bef5_19_reduce_recursive_cu_f01ff992__ZN7kernels52_GLOBAL__N__9038bef5_19_reduce_recursive_cu_f01ff99216recursive_kernelEPKfmPfS3_S3_";
  const std::string b = "__nv_static_41__92dce353_19_reduce_recursive_cu_f01ff992__ZN7kernels52_GLOBAL__N__92dce353_19_reduce_recursive_cu_f01ff99216recursive_kernelEPKfmPfS3_S3_";
  EXPECT_EQ(stable_kernel_name(a), "__nv_static_41__*_19_reduce_recursive_cu_f01ff992__ZN7kernels52_GLOBAL__N__*_19_reduce_recursive_cu_f01ff99216recursive_kernelEPKfmPfS3_S3_");
  EXPECT_EQ(identify({kernel(a, "46b72b5c85fc6c9a", 1)}).digest, identify({kernel(b, "46b72b5c85fc6c9a", 1)}).digest);
  EXPECT_NE(identify({kernel(a, "46b72b5c85fc6c9a", 1)}).digest, identify({kernel(a, "46b72b5c85fc6c9b", 1)}).digest) << "another SASS";
  for (const std::string plain : {"kernels::fast_reduce(float const*, unsigned long)", "_GLOBAL__N__12", "__nv_static_x__abcdef01_"})
    EXPECT_EQ(stable_kernel_name(plain), plain);
}

TEST(CodeIdentity, AKernelOfUnknownSassLeavesNoDigest) {
  const code_identity id = identify({kernel("cublas_gemm", "", 1)});
  EXPECT_TRUE(id.digest.empty());
  EXPECT_NE(id.problem.find("cublas_gemm"), std::string::npos);
  EXPECT_TRUE(identify({}).digest.empty());
}

TEST(CodeIdentity, ItsJsonReadsBackAndABadDigestIsRefused) {
  const code_identity a = identify({kernel("k1", "00000000000000aa", 7), copy("DtoH", 16, 7)});
  const code_identity b = code_identity_from_json(nlohmann::json::parse(to_json(a).dump()), "x.json");
  EXPECT_EQ(b.digest, a.digest);
  EXPECT_EQ(b.launches, a.launches);
  EXPECT_EQ(b.streams, 1u);
  EXPECT_THROW(code_identity_from_json(nlohmann::json{{"digest", "xyz"}}, "x.json"), input_error);
}

TEST(CodeIdentity, ADigestThatIsNotOfItsLaunchesIsUnknownNotTheSame) {
  const code_identity a = identify({kernel("k1", "00000000000000aa", 7), copy("DtoH", 16, 7)});
  nlohmann::json changed = nlohmann::json::parse(to_json(a).dump());
  changed["launches"][0] = "kernel k1 sass=00000000000000ab grid=1x1x1 block=1x1x1 smem=0";  // the digest kept
  const code_identity stale = code_identity_from_json(changed, "x.json");
  EXPECT_TRUE(stale.digest.empty()) << "a digest that is not of its launches names no code";
  EXPECT_NE(stale.problem.find("does not match"), std::string::npos);
  nlohmann::json no_launches = nlohmann::json::parse(to_json(a).dump());
  no_launches.erase("launches");
  EXPECT_TRUE(code_identity_from_json(no_launches, "x.json").digest.empty());
  EXPECT_EQ(code_identity_from_json(nlohmann::json::parse(to_json(a).dump()), "x.json").digest, a.digest);
  EXPECT_THROW(code_identity_from_json(nlohmann::json{{"launches", 3}}, "x.json"), input_error);
  EXPECT_THROW(code_identity_from_json(nlohmann::json::array(), "x.json"), input_error);
}

TEST(CodeIdentity, ScalarArgumentsAreListedPointersAndStructsAreNot) {
  const std::uint64_t pointer = 0x7f0000001000ull, big = 1ull << 40;
  const std::uint32_t n = 16777216;
  const char bytes[16] = {1, 2, 3};
  const std::vector<kernel_parameter> layout{{0, 8}, {8, 4}, {16, 8}, {24, 16}, {40, 4}};
  const void* values[] = {&pointer, &n, &big, bytes, nullptr};
  const auto value_of = [&](std::size_t i) { return values[i]; };
  const auto is_pointer = [&](std::uint64_t v) { return v == pointer; };
  EXPECT_EQ(scalar_arguments(layout, value_of, is_pointer), "(p,16777216,1099511627776,-,-)");
  EXPECT_EQ(scalar_arguments({}, value_of, is_pointer), "()");
  const std::vector<kernel_parameter> many(40, kernel_parameter{0, 8});
  const std::string hashed = scalar_arguments(many, [&](std::size_t) { return static_cast<const void*>(&big); }, is_pointer);
  EXPECT_EQ(hashed.substr(0, 2), "(#");
  EXPECT_EQ(hashed.size(), 19u);
}

TEST(CodeIdentity, AnotherProblemSizeIsAnotherIdentity) {
  device_op a = kernel("reduce", "00000000000000aa", 7), b = a, c = a;
  a.args = "(p,16777216,p)";
  b.args = "(p,17112760,p)";
  c.args = a.args;
  EXPECT_NE(identify({a}).digest, identify({b}).digest) << "a kernel given 2% more elements";
  EXPECT_EQ(identify({a}).digest, identify({c}).digest);
  EXPECT_NE(identify({a}).launches.front().find("args=(p,16777216,p)"), std::string::npos);
}
