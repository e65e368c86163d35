/* A core file that includes a floor above it: the check must refuse it. */
#include "session/engine.h"
