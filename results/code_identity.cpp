#include "results/code_identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "io/errors.hpp"

namespace cudabench {

bool is_identity_digest(const std::string& digest) {
  return digest.size() == 16 && digest.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string fnv1a_hex(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

std::string scalar_arguments(const std::vector<kernel_parameter>& layout,
                             const std::function<const void*(std::size_t)>& value_of,
                             const std::function<bool(std::uint64_t)>& is_pointer) {
  std::string list;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (i) list += ',';
    const void* v = value_of(i);
    if (!v || (layout[i].size != 4 && layout[i].size != 8)) {
      list += '-';
    } else if (layout[i].size == 4) {
      std::uint32_t x = 0;
      std::memcpy(&x, v, 4);
      list += std::to_string(x);
    } else {
      std::uint64_t x = 0;
      std::memcpy(&x, v, 8);
      list += is_pointer(x) ? std::string("p") : std::to_string(x);
    }
  }
  if (list.size() > 96) list = "#" + fnv1a_hex(list);
  return "(" + list + ")";
}

std::string stable_kernel_name(std::string name) {
  const auto is_hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  // The 8 hex digits of the module hash, after each of these markers (the first with its decimal length first).
  for (const std::string_view marker : {std::string_view("__nv_static_"), std::string_view("_GLOBAL__N__")}) {
    for (std::size_t at = name.find(marker); at != std::string::npos; at = name.find(marker, at + 1)) {
      std::size_t h = at + marker.size();
      if (marker == "__nv_static_") {  // __nv_static_<digits>__<hash>_
        while (h < name.size() && name[h] >= '0' && name[h] <= '9') ++h;
        if (name.compare(h, 2, "__") != 0) continue;
        h += 2;
      }
      if (h + 9 > name.size() || !std::all_of(name.begin() + long(h), name.begin() + long(h + 8), is_hex) ||
          name[h + 8] != '_')
        continue;
      name.replace(h, 8, "*");
    }
  }
  return name;
}

code_identity identify(const std::vector<device_op>& ops) {
  code_identity id;
  std::set<std::uint32_t> streams;
  std::string unknown;
  for (const device_op& o : ops) {
    streams.insert(o.stream);
    switch (o.what) {
      case device_op::kind::kernel:
        id.launches.push_back(fmt::format("kernel {} sass={} {}{}{}", stable_kernel_name(o.name),
                                          o.sass.empty() ? "?" : o.sass, o.shape,
                                          o.args.empty() ? "" : " args=", o.args));
        if (o.sass.empty() && unknown.empty()) unknown = o.name;
        break;
      case device_op::kind::memcpy: id.launches.push_back(fmt::format("copy {} {} B", o.copy, o.bytes)); break;
      case device_op::kind::memset: id.launches.push_back(fmt::format("memset {} B", o.bytes)); break;
    }
  }
  std::sort(id.launches.begin(), id.launches.end());
  id.streams = streams.size();
  if (ops.empty())
    id.problem = "no device operation was recorded";
  else if (!unknown.empty())
    id.problem = fmt::format("the SASS of kernel {} was not seen loaded", unknown);
  if (!id.problem.empty()) return id;
  id.digest = launches_digest(id.launches, id.streams);
  return id;
}

std::string launches_digest(const std::vector<std::string>& launches, std::size_t streams) {
  std::string all = fmt::format("streams={}\n", streams);
  for (const std::string& l : launches) all += l + "\n";
  return fnv1a_hex(all);
}

nlohmann::ordered_json to_json(const code_identity& c) {
  nlohmann::ordered_json j;
  j["digest"] = c.digest;
  j["streams"] = c.streams;
  j["launches"] = c.launches;
  if (!c.problem.empty()) j["problem"] = c.problem;
  return j;
}

code_identity code_identity_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw input_error(where + ": 'code' is not an object");
  code_identity c;
  auto text = [&](const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) return std::string();
    if (!it->is_string()) throw input_error(fmt::format("{}: 'code.{}' is not a string", where, key));
    return it->get<std::string>();
  };
  c.digest = text("digest");
  c.problem = text("problem");
  if (!c.digest.empty() && !is_identity_digest(c.digest))
    throw input_error(fmt::format("{}: 'code.digest' is not 16 hex digits", where));
  if (const auto it = j.find("streams"); it != j.end()) {
    if (!it->is_number_unsigned()) throw input_error(where + ": 'code.streams' is not a count");
    c.streams = it->get<std::size_t>();
  }
  if (const auto it = j.find("launches"); it != j.end()) {
    if (!it->is_array()) throw input_error(where + ": 'code.launches' is not a list");
    for (const auto& l : *it) {
      if (!l.is_string()) throw input_error(where + ": an entry of 'code.launches' is not a string");
      c.launches.push_back(l.get<std::string>());
    }
  }
  // The digest stands for the launches only where it is theirs: one kept from other launches (an edited file, a
  // stale copy) would call changed code the same.
  if (!c.digest.empty() && launches_digest(c.launches, c.streams) != c.digest) {
    c.digest.clear();
    c.problem = "the recorded digest does not match the recorded launches";
  }
  return c;
}

}  // namespace cudabench
