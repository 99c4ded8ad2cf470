// The native hello route: a fixed answer produced entirely in C++, through
// the same connection and exchange code as any app. It is the ceiling that
// the Python shapes are measured against.
#pragma once

#include "core/http1/exchange.h"

namespace baton::server {

class native_hello final : public http1::request_handler {
 public:
  void handle(http1::exchange& ex) override {
    static constexpr std::string_view body = "Hello, World!";
    ex.begin_response(200, "200 OK");
    ex.add_header("content-type", "text/plain");
    ex.add_header("content-length", "13");
    ex.write_body(body.data(), body.size());
    ex.finish();
  }
};

}  // namespace baton::server
