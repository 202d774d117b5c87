"""Static files' storage: WhiteNoise's compressed, hashed storage, forgiving before collectstatic.

After ``collectstatic`` (``scripts/serve`` runs it) pages link hashed, compressed files that
browsers cache for a year. Before it (tests, the development server) a file missing from
the manifest is linked by its plain name and WhiteNoise serves it from the apps, instead of
the page failing.
"""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def hashed_name(self, name, content=None, filename=None):
        try:
            return super().hashed_name(name, content, filename)
        except ValueError:  # not collected yet
            return name
