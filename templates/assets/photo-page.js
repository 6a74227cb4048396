/* A photo's page may be the reload of a lightbox's address: Back then comes here with the
   album's address, whose page must be loaded. */
addEventListener("popstate", function () { location.reload(); });
