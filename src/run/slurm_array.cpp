#include "src/run/slurm_array.hpp"

#include <cstdlib>
#include <optional>

#include "src/error.hpp"

namespace imgpar {

namespace {

constexpr const char* kId = "SLURM_ARRAY_TASK_ID";
constexpr const char* kMin = "SLURM_ARRAY_TASK_MIN";
constexpr const char* kMax = "SLURM_ARRAY_TASK_MAX";
constexpr const char* kCount = "SLURM_ARRAY_TASK_COUNT";
constexpr const char* kStep = "SLURM_ARRAY_TASK_STEP";

Error slurm_error(const std::string& reason) { return usage_error("--shard slurm", reason); }

// The variable as a whole number of at most 9 digits (Slurm's ids stay
// below its MaxArraySize, at most 4000001), or nothing when it is unset.
std::optional<long long> number(const EnvLookup& lookup, const char* name) {
    const char* value = lookup(name);
    if (!value) return std::nullopt;
    const std::string text(value);
    bool digits = !text.empty() && text.size() <= 9;
    for (char c : text) digits = digits && c >= '0' && c <= '9';
    if (!digits) throw slurm_error(std::string(name) + "='" + text + "' is not a task id (a whole number)");
    return std::stoll(text);
}

long long required(const EnvLookup& lookup, const char* name) {
    const std::optional<long long> n = number(lookup, name);
    if (!n)
        throw slurm_error(std::string(name) + " is not set: --shard slurm reads the variables of a Slurm array task "
                                              "(sbatch --array=...); elsewhere give --shard K/N");
    return *n;
}

}  // namespace

Shard slurm_array_shard(const EnvLookup& lookup) {
    const long long id = required(lookup, kId);
    const long long min = required(lookup, kMin);
    const std::optional<long long> max = number(lookup, kMax);
    std::optional<long long> count = number(lookup, kCount);
    const long long step = number(lookup, kStep).value_or(1);
    if (step < 1) throw slurm_error(std::string(kStep) + "=0 is not a step");
    if (!count && !max)
        throw slurm_error(std::string(kCount) + " and " + kMax + " are both unset: the number of tasks is unknown");
    if (id < min) throw slurm_error(std::string(kId) + "=" + std::to_string(id) + " is below " + kMin + "=" +
                                    std::to_string(min));
    const auto ids = [&] {
        return std::string(kMin) + "=" + std::to_string(min) + (max ? ", " + std::string(kMax) + "=" + std::to_string(*max) : "") +
               ", " + kStep + "=" + std::to_string(step) + (count ? ", " + std::string(kCount) + "=" + std::to_string(*count) : "");
    };
    if (max) {
        if (*max < id || (*max - min) % step != 0)
            throw slurm_error(std::string(kId) + "=" + std::to_string(id) + " does not fit " + ids());
        const long long in_range = (*max - min) / step + 1;
        // A list of ids (--array=1,4,9) has more ids between MIN and MAX than
        // tasks: its tasks cannot tell their places from these variables.
        if (count && *count != in_range)
            throw slurm_error("the array's task ids are not one range (" + ids() +
                              "): use --array=A-B or A-B:STEP, or give each task --shard K/N");
        count = in_range;
    }
    if ((id - min) % step != 0 || (id - min) / step + 1 > *count)
        throw slurm_error(std::string(kId) + "=" + std::to_string(id) + " does not fit " + ids());
    return Shard{(id - min) / step + 1, *count};
}

}  // namespace imgpar
