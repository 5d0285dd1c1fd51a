// A small JSON object (a results row, a case's metadata) kept as the parser's events in reused buffers, read
// through the part of nlohmann's interface the results reader uses: no tree is built, nothing is allocated
// once the buffers have grown. Anything the reader would do differently from a tree (a value's conversion, its
// type's message) is done by the tree the events make (to_json), so a reader of either gives the same results
// and the same errors.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudabench {

/// The events of one JSON object of scalars and objects (no arrays), in the parser's order.
class json_events {
 public:
  using json = nlohmann::ordered_json;
  enum class type : std::uint8_t {
    null,
    boolean,
    integer,
    unsigned_integer,
    floating,
    string,
    object_start,
    key,
    object_end
  };
  struct event {
    type t;
    bool b = false;
    union {
      std::int64_t i;
      std::uint64_t u;
      double d = 0;
    };
    std::uint32_t at = 0, size = 0;  ///< a key's or a string's text in the arena
    std::uint32_t end = 0;           ///< an object_start's object_end (set when it ends; u: its keys' bits)
    std::uint32_t tag = 0;           ///< a key's key_tag
  };
  /// A few of a key's bytes and its length: keys of different tags differ.
  static std::uint32_t key_tag(std::string_view k) {
    if (k.empty()) return 0;
    const auto byte = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(k[i])); };
    return std::uint32_t(k.size()) ^ byte(0) << 8 ^ byte(k.size() / 2) << 16 ^ byte(k.size() - 1) << 24;
  }
  /// One of 64 bits for a key's tag: an object's keys' bits tell most keys it does not have at once.
  static std::uint64_t key_bit(std::uint32_t tag) { return std::uint64_t(1) << ((tag * 2654435761u) >> 26); }

  void clear() {
    events_.clear();
    text_.clear();
  }
  std::size_t size() const { return events_.size(); }
  const event& operator[](std::size_t i) const { return events_[i]; }
  std::string_view text(const event& e) const { return std::string_view(text_).substr(e.at, e.size); }

  void add(type t) { events_.push_back(event{t}); }
  void add_text(type t, std::string_view s) {
    event e{t};
    e.at = std::uint32_t(text_.size());
    e.size = std::uint32_t(s.size());
    text_.append(s);
    if (t == type::key) e.tag = key_tag(s);
    events_.push_back(e);
  }
  template <typename Number>
  void add_number(type t, Number v) {
    event e{t};
    if constexpr (std::is_same_v<Number, double>)
      e.d = v;
    else if constexpr (std::is_signed_v<Number>)
      e.i = v;
    else
      e.u = v;
    events_.push_back(e);
  }
  void add_boolean(bool v) {
    event e{type::boolean};
    e.b = v;
    events_.push_back(e);
  }
  /// Ends the object that the object_start at `start` began, whose keys have the bits `key_bits` (key_bit).
  void end_object(std::size_t start, std::uint64_t key_bits) {
    events_[start].end = std::uint32_t(events_.size());
    events_[start].u = key_bits;
    add(type::object_end);
  }

  /// Hands each event from the `from`th on to `sax` (nlohmann's SAX interface), as the parser did.
  template <typename Sax>
  void replay(Sax& sax, std::size_t from = 0) const {
    for (std::size_t i = from; i < events_.size(); ++i) {
      const event& e = events_[i];
      std::string s;
      switch (e.t) {
        case type::null: sax.null(); break;
        case type::boolean: sax.boolean(e.b); break;
        case type::integer: sax.number_integer(e.i); break;
        case type::unsigned_integer: sax.number_unsigned(e.u); break;
        case type::floating: sax.number_float(e.d, s); break;
        case type::string:
          s = text(e);
          sax.string(s);
          break;
        case type::object_start: sax.start_object(std::size_t(-1)); break;
        case type::key:
          s = text(e);
          sax.key(s);
          break;
        case type::object_end: sax.end_object(); break;
      }
    }
  }

 private:
  std::vector<event> events_;
  std::string text_;
};

/// A value among json_events: what the results reader asks of an ordered_json, answered from the events.
class event_json {
 public:
  using json = nlohmann::ordered_json;
  using type = json_events::type;
  class iterator;
  class members;
  event_json(const json_events& events, std::size_t at) : ev_(&events), at_(at) {}

  bool is_null() const { return t() == type::null; }
  bool is_boolean() const { return t() == type::boolean; }
  bool is_number() const { return t() == type::integer || t() == type::unsigned_integer || t() == type::floating; }
  bool is_number_integer() const { return t() == type::integer || t() == type::unsigned_integer; }
  bool is_number_unsigned() const { return t() == type::unsigned_integer; }
  bool is_string() const { return t() == type::string; }
  bool is_object() const { return t() == type::object_start; }
  bool is_array() const { return false; }
  const char* type_name() const {
    switch (t()) {
      case type::null: return "null";
      case type::boolean: return "boolean";
      case type::string: return "string";
      case type::object_start: return "object";
      default: return "number";
    }
  }

  /// As json::get: the value where it has that type, else what the tree makes of it (a conversion or its error).
  template <typename T>
  T get() const {
    const json_events::event& e = (*ev_)[at_];
    if constexpr (std::is_same_v<T, std::string>) {
      if (e.t == type::string) return std::string(ev_->text(e));
    } else if constexpr (std::is_same_v<T, bool>) {
      if (e.t == type::boolean) return e.b;
    } else if constexpr (std::is_same_v<T, double>) {
      if (e.t == type::floating) return e.d;
      if (e.t == type::integer) return double(e.i);
      if (e.t == type::unsigned_integer) return double(e.u);
    }
    return to_json().template get<T>();
  }
  /// The text of a string (a view into the events; valid while they are).
  std::string_view text() const { return ev_->text((*ev_)[at_]); }

  /// An object's members in order: `*it` is the value, `it.key()` its key (as a json iterator).
  iterator begin() const;
  iterator end() const;
  /// The members as (key, value) pairs (as json::items()).
  members items() const;
  iterator find(std::string_view key) const;
  bool contains(std::string_view key) const;
  /// The member `key`, which must be there (as a const json's operator[]).
  event_json operator[](std::string_view key) const;
  /// As json::value: the member's value where it is there, else `fallback`.
  std::string value(std::string_view key, const char* fallback) const;
  bool value(std::string_view key, bool fallback) const;

  /// The tree the parser's events would have made of this value.
  json to_json() const;
  std::string dump() const { return to_json().dump(); }

 private:
  type t() const { return (*ev_)[at_].t; }
  const json_events* ev_;
  std::size_t at_;
  /// Where find starts: the member it found last (readers look members up about in the order they are written).
  mutable std::size_t hint_ = 0;
};

class event_json::iterator {
 public:
  iterator(const json_events* ev, std::size_t at) : ev_(ev), at_(at), value_(*ev, at + 1) {}
  std::string_view key() const { return ev_->text((*ev_)[at_]); }
  std::uint32_t key_tag() const { return (*ev_)[at_].tag; }
  std::size_t at() const { return at_; }  ///< the index of the member's key event
  const event_json& operator*() const { return value_; }
  const event_json* operator->() const { return &value_; }
  iterator& operator++() {
    const json_events::event& v = (*ev_)[at_ + 1];
    at_ = v.t == type::object_start ? v.end + 1 : at_ + 2;
    value_.at_ = at_ + 1;
    return *this;
  }
  friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }
  friend bool operator!=(const iterator& a, const iterator& b) { return a.at_ != b.at_; }

 private:
  const json_events* ev_;
  std::size_t at_;  ///< the member's key
  event_json value_;
};

class event_json::members {
 public:
  explicit members(const event_json& object) : object_(object) {}
  struct iterator : event_json::iterator {
    std::pair<std::string_view, event_json> operator*() const { return {key(), event_json::iterator::operator*()}; }
  };
  iterator begin() const { return {object_.begin()}; }
  iterator end() const { return {object_.end()}; }

 private:
  event_json object_;
};

inline event_json::iterator event_json::begin() const { return iterator(ev_, at_ + 1); }
inline event_json::iterator event_json::end() const { return iterator(ev_, is_object() ? (*ev_)[at_].end : at_ + 1); }
inline event_json::members event_json::items() const { return members(*this); }

inline event_json::iterator event_json::find(std::string_view key) const {
  const iterator last = end();
  const std::uint32_t tag = json_events::key_tag(key);
  if (!is_object() || !((*ev_)[at_].u & json_events::key_bit(tag))) return last;
  const iterator from = hint_ > at_ ? iterator(ev_, hint_) : begin();
  auto found = [&](const iterator& it) { return it.key_tag() == tag && it.key() == key && (hint_ = it.at(), true); };
  for (iterator it = from; it != last; ++it)
    if (found(it)) return it;
  for (iterator it = begin(); it != from; ++it)
    if (found(it)) return it;
  return last;
}
inline bool event_json::contains(std::string_view key) const { return find(key) != end(); }
inline event_json event_json::operator[](std::string_view key) const { return *find(key); }
inline std::string event_json::value(std::string_view key, const char* fallback) const {
  const iterator it = find(key);
  return it != end() ? it->get<std::string>() : std::string(fallback);
}
inline bool event_json::value(std::string_view key, bool fallback) const {
  const iterator it = find(key);
  return it != end() ? it->get<bool>() : fallback;
}

// NOLINTNEXTLINE(misc-no-recursion): objects nest as deep as the text, whose depth is checked before it is read
inline event_json::json event_json::to_json() const {
  const json_events::event& e = (*ev_)[at_];
  switch (e.t) {
    case type::null: return json(nullptr);
    case type::boolean: return json(e.b);
    case type::integer: return json(e.i);
    case type::unsigned_integer: return json(e.u);
    case type::floating: return json(e.d);
    case type::string: return json(std::string(text()));
    default: break;
  }
  json out = json::object();
  auto& object = static_cast<json::object_t::Container&>(out.get_ref<json::object_t&>());
  for (iterator it = begin(); it != end(); ++it) object.emplace_back(std::string(it.key()), it->to_json());
  return out;
}

}  // namespace cudabench
