// Snowball's stemmers (Debian's libstemmer-dev), for the search index's word stems.
#include <libstemmer.h>
