// The scrape's answer: every family of the region, summed over the workers
// alive and those gone (the retired counters), in the Prometheus text
// format (0.0.4) or, when the scraper asks for it, OpenMetrics 1.0.
#pragma once

#include <string>
#include <string_view>

#include "core/metrics/region.h"

namespace baton::metrics {

enum class format : uint8_t { prometheus, openmetrics };

// OpenMetrics when the Accept field names it, the text format otherwise.
format format_for(std::string_view accept);
const char* content_type(format f);

// The constant labels of baton_build_info.
struct build_info {
  std::string version;  // baton's
  std::string python;   // "3.13.5"
  bool free_threaded = false;
};

// Takes the region's fold lock while it sums.
std::string render(const region& r, format f, const build_info& info);

}  // namespace baton::metrics
