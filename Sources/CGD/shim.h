#include <gd.h>
#include <gd_errors.h>
