// The native hello route: a fixed answer produced entirely in C++, through
// the same connection and exchange code as any app. It is the ceiling that
// the Python shapes are measured against.
#pragma once

#include "core/server/dispatcher.h"

namespace baton::server {

class native_hello final : public request_handler {
 public:
  void handle(exchange::exchange& s) override {
    static constexpr std::string_view body = "Hello, World!";
    s.begin_response(200, "200 OK");
    s.add_header("content-type", "text/plain");
    s.add_header("content-length", "13");
    s.try_send(body.data(), body.size());
    s.finish();
  }
};

}  // namespace baton::server
