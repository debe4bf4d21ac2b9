// The formats a report can be printed in (--csv, --json; text otherwise).
#pragma once

namespace imgpar {

enum class ReportFormat { Text, Csv, Json };

}  // namespace imgpar
