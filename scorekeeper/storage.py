"""Static files as production serves them."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

# One of the app's own ES module imports, as static/js writes them: names in braces
# from a neighbour, on one line (``import { on } from "./events.js";``).
_IMPORT = r"""(?P<matched>import(?P<names>\s*\{[^}]*\}\s*)from\s*"(?P<url>\./[^"]+)"\s*;)"""


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's fingerprinted, compressed files, with the imports of the app's own
    scripts (static/js) rewritten to the fingerprinted names too. Left as written, a
    module loaded by its fingerprinted name would import its neighbours by their plain
    names: a second copy of each, its listeners twice, cached apart from the files it
    came with. (Django's own switch for this, support_js_module_import_aggregation,
    reads every script, htmx's extensions included, and fails on their imports.)

    ``patterns`` is the attribute Django's docs name as the expressions that find
    those paths (HashedFilesMixin.patterns); the form of an entry (``matched`` and
    ``url`` groups, a template) is Django's own, as its module patterns write it.
    tests/app/test_static_files.py collects the scripts and fails, naming this, the
    day a release of Django reads them otherwise."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("js/*.js", ((_IMPORT, 'import%(names)sfrom "%(url)s";'),)),
    )
