// Tests of app/child_process: its own process group, SIGINT at its default, output and descriptors where
// asked, the stop signal passed on, and a child still running when its owner goes away killed and reaped.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "io/child_process.hpp"
#include "io/errors.hpp"
#include "io/interrupt.hpp"

using namespace cudabench;

namespace {
child_spec shell(const std::string& script) {
  child_spec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.environment = inherited_environment("");
  return spec;
}

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/child_process_test." + std::to_string(::getpid()) + "." + name;
}

bool exists_as_process(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }  // a zombie counts
}  // namespace

TEST(ChildProcess, RunsInItsOwnProcessGroupAndReportsItsStatus) {
  child_process c(shell("exit 7"));
  EXPECT_EQ(::getpgid(c.pid()), c.pid());
  const int st = c.wait();
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 7);
  EXPECT_TRUE(c.reaped());
  EXPECT_EQ(c.wait(), st);  // once reaped, its status stays
}

TEST(ChildProcess, OutputAndErrorGoToTheFileAsked) {
  const std::string log = temp_path("log");
  child_spec spec = shell("echo out; echo err >&2");
  spec.output_path = log;
  child_process c(spec);
  EXPECT_EQ(c.wait(), 0);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "out\nerr\n");
  ::unlink(log.c_str());
}

TEST(ChildProcess, ErrorGoesToItsOwnFileAndTheDirectoryIsTheOneAsked) {
  const std::string out = temp_path("out"), err = temp_path("err");
  child_spec spec = shell("pwd; echo err >&2");
  spec.output_path = out;
  spec.error_path = err;
  spec.directory = "/usr";
  child_process c(spec);
  EXPECT_EQ(c.wait(), 0);
  auto text_of = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  EXPECT_EQ(text_of(out), "/usr\n");
  EXPECT_EQ(text_of(err), "err\n");
  ::unlink(out.c_str());
  ::unlink(err.c_str());
}

TEST(ChildProcess, EnvironmentIsTheOneGiven) {
  ::setenv("CHILD_PROCESS_TEST_DROPPED", "1", 1);
  child_spec spec = shell("[ -z \"$CHILD_PROCESS_TEST_DROPPED\" ] && [ \"$CHILD_PROCESS_TEST_ADDED\" = yes ]");
  spec.environment = inherited_environment("CHILD_PROCESS_TEST_", {"CHILD_PROCESS_TEST_ADDED=yes"});
  child_process c(spec);
  EXPECT_EQ(c.wait(), 0);
  ::unsetenv("CHILD_PROCESS_TEST_DROPPED");
}

TEST(ChildProcess, PassesOnlyTheDescriptorsAsked) {
  int passed[2], kept[2];
  ASSERT_EQ(::pipe2(passed, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(kept, O_CLOEXEC), 0);
  child_spec spec = shell("echo hi >&" + std::to_string(passed[1]) + " && ! { echo no >&" + std::to_string(kept[1]) + "; } 2>/dev/null");
  spec.pass_fds = {passed[1]};
  child_process c(spec);
  ::close(passed[1]);
  ::close(kept[1]);
  char buf[16] = {};
  EXPECT_EQ(::read(passed[0], buf, sizeof buf), 3);
  EXPECT_STREQ(buf, "hi\n");
  EXPECT_EQ(c.wait(), 0);  // the descriptor not passed was not open in the child
  EXPECT_EQ(::read(kept[0], buf, sizeof buf), 0);
  ::close(passed[0]);
  ::close(kept[0]);
}

// A shell ignores SIGINT for a background job; the child must still stop on it.
TEST(ChildProcess, InterruptIsAtItsDefaultInTheChild) {
  struct sigaction ignore{}, old{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old);
  child_spec spec;
  spec.argv = {"/bin/sleep", "30"};
  spec.environment = inherited_environment("");
  child_process c(spec);
  ::sigaction(SIGINT, &old, nullptr);
  ::kill(c.pid(), SIGINT);
  const int st = c.wait();
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), SIGINT);
}

TEST(ChildProcess, OneStillRunningIsKilledAndReapedWithItsOwner) {
  pid_t pid = 0;
  {
    child_spec spec;
    spec.argv = {"/bin/sleep", "30"};
    child_process c(spec);
    pid = c.pid();
    EXPECT_FALSE(c.try_wait());
    child_process moved = std::move(c);  // the new owner kills it
    EXPECT_EQ(moved.pid(), pid);
  }
  EXPECT_FALSE(exists_as_process(pid));  // no zombie left either: reaped
}

TEST(ChildProcess, KillGroupStopsItsWholeGroup) {
  child_process c(shell("sleep 30 & wait"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  c.kill_group(SIGKILL);
  const int st = c.wait();
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), SIGKILL);
}

TEST(ChildProcess, WaitAnyReapsInTheOrderTheyEnd) {
  std::vector<child_process> children;
  children.emplace_back(shell("sleep 0.4; exit 1"));
  children.emplace_back(shell("exit 2"));
  std::vector<int> codes;
  while (const auto i = wait_any(children)) codes.push_back(WEXITSTATUS(*children[*i].status()));
  EXPECT_EQ(codes, (std::vector<int>{2, 1}));
  EXPECT_FALSE(wait_any(children));
}

TEST(ChildProcess, WaitAnyLeavesOtherOwnersChildrenAlone) {
  child_process stranger(shell("exit 5"));
  std::vector<child_process> mine;
  mine.emplace_back(shell("sleep 0.3; exit 3"));
  const auto i = wait_any(mine);
  ASSERT_TRUE(i);
  EXPECT_EQ(WEXITSTATUS(*mine[*i].status()), 3);
  const int st = stranger.wait();  // still there for its owner to reap
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 5);
}

TEST(ChildProcess, AProgramThatCannotStartIsAnInputError) {
  child_spec spec;
  spec.argv = {"/no/such/program"};
  EXPECT_THROW(child_process c(spec), input_error);
}

// The stop-signal forwarding: a SIGINT to this process reaches each running child once (run in a forked
// process, since the first stop signal is recorded for the rest of the process's life).
[[noreturn]] void interrupt_with_a_child_running() {
  install_stop_signals();
  child_spec spec;
  spec.argv = {"/bin/sleep", "30"};
  child_process c(spec);
  ::raise(SIGINT);
  const int st = c.wait();
  std::_Exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT ? 0 : 1);
}

TEST(ChildProcessDeathTest, StopSignalIsPassedOnToRunningChildren) {
  EXPECT_EXIT(interrupt_with_a_child_running(), ::testing::ExitedWithCode(0), "");
}

TEST(SignalName, OneNameForEverySignalAndANumberForNone) {
  EXPECT_EQ(cudabench::signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(cudabench::signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(cudabench::signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(cudabench::signal_name(0), "signal 0");
}

// A log's last lines as messages quote them: blank and CRLF-empty lines skipped, control characters escaped, a
// line without end cut short, only the end of a huge log read; nothing for a missing file.
TEST(ChildProcess, ALogsTailIsItsLastLinesPrintableAndShort) {
  const std::string log = temp_path("tail.log");
  {
    std::ofstream out(log, std::ios::binary);
    out << "first\r\nthe error: x\x1b[31m\r\n\r\n   \n";
  }
  EXPECT_EQ(log_tail(log), "the error: x\\x1b[31m");
  EXPECT_EQ(log_tail(log, 2), "first | the error: x\\x1b[31m");
  {
    std::ofstream out(log, std::ios::binary);
    out << std::string(8u << 20, 'a') << "\nlast\n" << std::string(10000, 'b');
  }
  const std::string tail = log_tail(log, 2);
  EXPECT_LT(tail.size(), 700u);
  EXPECT_EQ(tail.rfind("last | bbb", 0), 0u) << tail.substr(0, 40);
  std::remove(log.c_str());
  EXPECT_EQ(log_tail(log), "");
}

// A wait status as messages say it: an exit with its status, a signal with its number.
TEST(ChildProcess, AWaitStatusIsSaidAsAnExitOrASignal) {
  EXPECT_EQ(wait_status_text(child_process(shell("exit 3")).wait()), "exit 3");
  EXPECT_EQ(wait_status_text(child_process(shell("kill -9 $$")).wait()), "killed by signal 9");
}
