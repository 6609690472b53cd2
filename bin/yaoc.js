#!/usr/bin/env node
// The yaoc executable: the CLI bundled with its dependencies (built by `npm ci` through the
// prepare script; see scripts/bundle-cli.mjs), so start-up reads a few files instead of hundreds.
import "../dist/bundle/yaoc.mjs";
