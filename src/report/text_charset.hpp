// Whether text for people may use characters beyond ASCII (the histogram's
// Unicode block bars): only when the user's locale says its character set is
// UTF-8. A terminal or a file read under the C locale, or a Latin-1 one,
// would show those bytes as garbage, so they get ASCII instead.
#pragma once

#include <string>

namespace imgpar {

// The character set of the locale `name` ("C.UTF-8", "de_DE.ISO-8859-1") is
// UTF-8: as the system's locale data says, or, for a locale the system does
// not have (a container without locale data), as its name says ("en_US.UTF-8",
// "en_US.utf8"). The C and POSIX locales, and an empty name, are ASCII.
bool locale_is_utf8(const std::string& name);

// The same for the locale the environment selects for characters, as POSIX
// orders it: LC_ALL, else LC_CTYPE, else LANG (the first one set and not
// empty). Read once. Nothing global changes: the process keeps the C locale,
// so numbers are still read and written with a '.'.
bool environment_is_utf8();

}  // namespace imgpar
