#include "symbolicrun.h"
