// The page of an address that leads nowhere: only its language selector to set up.
"use strict";
languageSelector();
