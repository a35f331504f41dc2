// The system's libyaml (Debian: libyaml-dev). A local header is required: a system-library
// module map cannot name <yaml.h> directly.
#include <yaml.h>
