// Command lines read through the option table: parsing, the argv of --devices children, the wrapper's plan.
#include "cli/option_table.hpp"
#include "io/output_sink.hpp"

#include <fmt/format.h>

#include "io/format.hpp"

namespace cudabench::cli {

option_token read_option(const std::vector<std::string>& args, std::size_t i) {
  const std::string& a = args[i];
  option_token t{.first = i, .last = i};
  if (a.size() < 2 || a[0] != '-') {
    t.positional = true;
    t.value = a;
    return t;
  }
  const auto eq = a.find('=');
  t.name = a.substr(0, eq);
  t.spec = find_option(t.name);
  if (!t.spec) return t;
  const bool has_value = eq != std::string::npos;
  if (has_value) t.value = a.substr(eq + 1);
  switch (t.spec->kind) {
    case arity::flag:
      if (has_value) throw usage_error(fmt::format("{} takes no value", t.name));
      break;
    case arity::benchmark:  // as Google Benchmark: a bare flag is true, a value is given with =
      if (has_value) break;
      if (!t.spec->placeholder.ends_with("true|false"))
        throw usage_error(fmt::format("{} needs a value ({}={})", t.name, t.name, t.spec->placeholder));
      t.value = "true";
      break;
    case arity::value:
      if (has_value) break;
      // The next argument is its value, unless it is one of our options (a forgotten value): then say so
      // rather than take an option as a file name. A value that starts like an option needs the = form.
      if (i + 1 >= args.size() ||
          (args[i + 1].rfind("--", 0) == 0 && find_option(args[i + 1].substr(0, args[i + 1].find('=')))))
        throw usage_error(fmt::format("{} needs a value ({}={})", t.name, t.name, t.spec->placeholder));
      t.value = args[i + 1];
      t.last = i + 1;
      break;
  }
  return t;
}

namespace {

std::string supported_benchmark_flags() {
  std::string list;
  for (const option_spec& o : option_table())
    if (o.kind == arity::benchmark) list += fmt::format("{}{}", list.empty() ? "" : ", ", o.name);
  return list;
}

/// ": did you mean --filter?" where `typed` is a slip of an option `cmd` takes, else "".
std::string option_hint(std::string_view typed, const command_spec& cmd) {
  std::vector<std::string_view> names;
  for (const option_spec& o : option_table())
    if (!o.hidden && takes(o, cmd.name)) names.push_back(o.name);
  const std::string meant = closest_name(typed, names);
  return meant.empty() ? "" : fmt::format(": did you mean {}?", meant);
}

std::string unknown_command(command_list all, const std::string& typed) {
  if (const std::string meant = closest_command(all, typed); !meant.empty())
    return fmt::format("unknown command '{}': did you mean {}?", printable(typed), meant);
  return fmt::format("unknown command '{}' (the commands are {}; options start with --)", printable(typed),
                     command_names(all, "and"));
}

[[noreturn]] void refuse(const option_token& t, const command_spec& cmd) {
  if (!t.spec && t.name.rfind("--benchmark_", 0) == 0)
    throw usage_error(fmt::format("{} is not supported by cudabench{} (supported: {})", printable(t.name),
                                  option_hint(t.name, cmd), supported_benchmark_flags()));
  if (!t.spec) throw usage_error(fmt::format("unknown option '{}'{}", printable(t.name), option_hint(t.name, cmd)));
  const std::string_view name = cmd.named ? cmd.name : std::string_view("a run");
  if (!t.spec->elsewhere.empty())
    throw usage_error(fmt::format("{} is not an option of {}: {}", t.name, name, t.spec->elsewhere));
  throw usage_error(fmt::format("{} is not an option of {}", t.name, name));
}

/// What the table's actions cannot check alone: --benchmark_out's format, and one use of standard output.
void finish(parse_state& s) {
  command_options& o = s.options;
  if (s.benchmark_out_format && !s.benchmark_out)
    throw usage_error("--benchmark_out_format needs --benchmark_out=FILE");
  if (s.benchmark_out && s.benchmark_out_format == "console") {
    if (descriptor_named(*s.benchmark_out) == 1)
      throw usage_error("--benchmark_out=- --benchmark_out_format=console: the table is on standard output already");
    o.console_out_path = s.benchmark_out;
  } else if (s.benchmark_out) {
    const bool csv = s.benchmark_out_format.value_or(default_benchmark_out_format) == "csv";
    std::optional<std::string>& taken = csv ? o.benchmark_csv_path : o.json_path;
    if (taken && *taken != *s.benchmark_out) {
      if (csv)  // Google Benchmark's CSV in one place: the other would be dropped without a word
        throw usage_error(
            fmt::format("--benchmark_out={} and --benchmark_format=csv both ask for Google Benchmark's CSV; cudabench "
                        "writes it to one place",
                        printable(*s.benchmark_out)));
      // The JSON in both places; a file is the one the run names (json_path), standard output the copy.
      o.json_copy_path = *taken == "-" ? taken : s.benchmark_out;
      if (*taken == "-") taken = s.benchmark_out;
    } else {
      taken = s.benchmark_out;
    }
  }
  if (o.profile) o.watchdog_s = 0;  // a profiler sees the cases in the process it started
  if (o.profiler && !o.profile_plan)
    throw usage_error(
        fmt::format("--{} starts a profiler, which the cudabench-run wrapper does (./run_bench runs the binary "
                    "through it: cudabench-run BINARY --{} ...)",
                    *o.profiler, *o.profiler));
  std::string on_stdout;  // what already writes to standard output
  if (o.format != report_options{}.format) on_stdout = "--format=" + o.format;  // report's dashboard export
  if (o.benchmark_csv_path && descriptor_named(*o.benchmark_csv_path) == 1) on_stdout = "--benchmark_format=csv";
  if (o.json_copy_path == "-") on_stdout = s.benchmark_out == "-" ? "--benchmark_out=-" : "--benchmark_format=json";
  for (const option_spec& spec : option_table()) {
    if (!takes(spec, s.cmd.name)) continue;
    const std::string* path = output_path(o, spec);
    if (!path || descriptor_named(*path) != 1) continue;
    if (!on_stdout.empty())
      throw usage_error(fmt::format("{} and {} {} cannot both use standard output", on_stdout, spec.name, *path));
    on_stdout = fmt::format("{} {}", spec.name, *path);
  }
}

bool asks_for_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "-h" || a == "--help") return true;
  return false;
}

}  // namespace

command_line parse_command_line(command_list all, const command_spec& cmd, const std::vector<std::string>& args) {
  command_line cl;
  cl.args = args;
  command_options& o = cl.options;
  if (asks_for_help(args)) {  // --help wins over anything else on the line
    o.help = true;
    for (const std::string& a : args) o.profile_plan = o.profile_plan || a == "--profile-plan";
    return cl;
  }
  parse_state state{.options = o, .cmd = cmd};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const option_token t = read_option(args, i);
    i = t.last;
    if (t.positional && !cmd.named) throw usage_error(unknown_command(all, t.value));
    if (t.positional) {
      cl.inputs.push_back(t.value);
      continue;
    }
    if (!t.spec || !takes(*t.spec, cmd.name)) refuse(t, cmd);
    t.spec->apply(state, *t.spec, t.value);
  }
  finish(state);
  if (cmd.passes_rest && cl.inputs.size() > cmd.input_count)
    throw usage_error(fmt::format("{} takes no argument '{}' (the benchmark binary's arguments follow --)", cmd.name,
                                  printable(cl.inputs[cmd.input_count])));
  if (cmd.named && (cmd.more_inputs ? cl.inputs.size() < cmd.input_count : cl.inputs.size() != cmd.input_count))
    throw usage_error(fmt::format("{} expects {}{} file argument(s) ({}), got {}", cmd.name,
                                  cmd.more_inputs ? "at least " : "", cmd.input_count, cmd.inputs, cl.inputs.size()));
  if (takes(*find_option("--compare-to"), cmd.name) && o.gates.given() && !o.compare_to)
    throw usage_error("--gates is the gates of a comparison: it needs --compare-to");
  return cl;
}

std::vector<std::string> child_arguments(const std::vector<std::string>& args, int device, const std::string& json) {
  std::vector<std::string> out;
  const std::string suffix = ".dev" + std::to_string(device);
  auto with_suffix = [&](const std::string& path) {
    if (path == "-") return path;
    const auto slash = path.rfind('/'), dot = path.rfind('.');
    return dot == std::string::npos || (slash != std::string::npos && dot < slash)
               ? path + suffix
               : path.substr(0, dot) + suffix + path.substr(dot);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const option_token t = read_option(args, i);
    i = t.last;
    const in_child rule = t.spec ? t.spec->child : in_child::keep;
    if (rule == in_child::replace) continue;
    if (rule == in_child::suffix)
      out.push_back(fmt::format("{}={}", t.spec->name, with_suffix(t.value)));
    else
      out.insert(out.end(), args.begin() + std::ptrdiff_t(t.first), args.begin() + std::ptrdiff_t(t.last) + 1);
  }
  out.push_back("--device=" + std::to_string(device));
  out.push_back("--json=" + json);
  return out;
}

std::string profile_plan(const run_options& o, const std::vector<std::string>& args) {
  std::vector<std::string> whole, per_case;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const option_token t = read_option(args, i);
    i = t.last;
    const std::string_view name = t.spec ? t.spec->name : "";
    if (name == "--nsys" || name == "--ncu" || name == "--profile-plan") continue;
    for (std::size_t k = t.first; k <= t.last; ++k) {
      whole.push_back(args[k]);
      if (!t.spec || !t.spec->whole_run) per_case.push_back(args[k]);
    }
  }
  std::string plan;
  auto field = [&](const std::string& f) { plan += f, plan += '\0'; };
  field(o.profiler.value_or("none"));
  field(o.preset);
  field(o.json_path && *o.json_path != "-" ? *o.json_path : "");
  for (const auto* list : {&whole, &per_case}) {
    field(std::to_string(list->size()));
    for (const std::string& a : *list) field(a);
  }
  return plan;
}

}  // namespace cudabench::cli
