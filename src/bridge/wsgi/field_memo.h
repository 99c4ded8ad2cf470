// What a thread has already found valid in the heads its apps answered
// with: status lines, field names, field values.
//
// An app answers most requests with the same str objects (constants in its
// code, or in its framework's: "200 OK", "Content-Type", "text/html;
// charset=utf-8"), and a str never changes. So a str found valid once is
// valid whenever it comes again; the memo keeps a reference to each it has
// checked, so its address cannot pass to another object, and knows it by
// that address. Checking a WSGI hello's head (a status line, two fields)
// took some 360 instructions a request; the memo's look-ups take some 80.
//
// Threads. A memo belongs to one wsgi_thread_state and is used only on the
// thread that claimed it last (the thread running that state's requests):
// a start_response called from another thread of the app checks without it.
// Holds the GIL (or, free-threaded, an attached thread state) throughout.
#pragma once

#include <Python.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace baton::bridge {

class field_memo {
 public:
  enum : uint8_t { name = 1, value = 2 };

  field_memo() = default;
  field_memo(const field_memo&) = delete;
  field_memo& operator=(const field_memo&) = delete;
  ~field_memo() { clear(); }

  // The thread that runs this memo's requests from now on, known by its
  // Python thread state. Atomic: a thread of the app that holds an old
  // request's start_response may look while the owner claims the memo for
  // the next request.
  void claim() {
    const PyThreadState* me = PyThreadState_Get();
    if (owner_.load(std::memory_order_relaxed) != me) owner_.store(me, std::memory_order_relaxed);
  }
  bool owned_here() const { return owner_.load(std::memory_order_relaxed) == PyThreadState_Get(); }

  // `text` (an exact str) was found a valid field name or value (`as`).
  bool known(PyObject* text, uint8_t as) const {
    const slot* s = find(text);
    return s != nullptr && (s->valid & as) != 0;
  }
  // The status code of a status line found valid before, or 0.
  int known_status(PyObject* text) const {
    const slot* s = find(text);
    return s != nullptr ? s->status : 0;
  }
  void remember(PyObject* text, uint8_t as) {
    if (slot* s = take(text)) s->valid |= as;
  }
  void remember_status(PyObject* text, int code) {
    if (slot* s = take(text)) s->status = static_cast<int16_t>(code);
  }

  void clear() {
    for (slot& s : slots_) {
      Py_CLEAR(s.text);
      s = slot{};
    }
  }

 private:
  struct slot {
    PyObject* text = nullptr;  // a strong reference
    uint8_t valid = 0;         // name | value
    int16_t status = 0;        // the code, when it is a valid status line
  };
  // 32 sets of two slots: a text may sit in either slot of its set, so two
  // texts of one head (a name and its value) that fall in one set do not
  // push each other out at every request.
  static constexpr size_t set_count = 32;  // a power of two
  static constexpr Py_ssize_t max_length = 256;

  // Objects are 16-byte aligned: the bits above those pick the set.
  static size_t first_slot(PyObject* text) {
    return ((reinterpret_cast<uintptr_t>(text) >> 4) & (set_count - 1)) * 2;
  }
  const slot* find(PyObject* text) const {
    size_t i = first_slot(text);
    if (slots_[i].text == text) return &slots_[i];
    if (slots_[i + 1].text == text) return &slots_[i + 1];
    return nullptr;
  }

  // The slot of `text`, made for it (in place of its set's older text) if
  // it has none; null for a text not kept: only exact str objects are (a
  // subclass could be anything), and short ones (a long text's check costs
  // more than a look-up saves anyway, and the memo should keep no large
  // object alive).
  slot* take(PyObject* text) {
    if (const slot* found = find(text)) return const_cast<slot*>(found);
    if (!PyUnicode_CheckExact(text) || PyUnicode_GET_LENGTH(text) > max_length) return nullptr;
    size_t set = first_slot(text) / 2;
    slot& s = slots_[set * 2 + older_[set]];
    older_[set] ^= 1;  // the other slot is the older one now
    PyObject* old = s.text;
    Py_INCREF(text);
    s = slot{text, 0, 0};
    Py_XDECREF(old);
    return &s;
  }

  slot slots_[set_count * 2];
  uint8_t older_[set_count] = {};  // per set: which of its two slots to replace next
  std::atomic<const PyThreadState*> owner_{nullptr};
};

}  // namespace baton::bridge
