// Running Python peers (NumPy, OpenCV, scikit-image) from the CLI tests,
// where the machine has them; the tests that need one say so and pass when
// it is missing.
#pragma once

#include <cstdlib>
#include <string>

namespace imgpar::test {

// A Python that can run `imports` ("import numpy, cv2"): the one on PATH,
// else the system's (a virtual environment or pyenv on PATH may lack
// Debian's packages); empty when neither can.
inline std::string python_with(const std::string& imports) {
    for (const std::string python : {"python3", "/usr/bin/python3"})
        if (std::system((python + " -c '" + imports + "' > /dev/null 2>&1").c_str()) == 0) return python;
    return {};
}

}  // namespace imgpar::test
