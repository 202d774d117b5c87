"""Static files' storage: WhiteNoise's compressed, hashed storage, forgiving before collectstatic.

After ``collectstatic`` (``scripts/serve`` runs it) pages link hashed, compressed files that
browsers cache for a year. Before it (tests, the development server) a file missing from
the manifest is linked by its plain name and WhiteNoise serves it from the apps, instead of
the page failing.

Brotli runs at quality 7, not WhiteNoise's default 11: on this project's 975 static files (25 MB, most of
them the API docs' bundles) quality 11 took 40 s of CPU at every collectstatic for files 11 % smaller than
quality 7's, which takes 1.6 s (gzip -9: 2.2 s, 19 % larger than brotli 7). Browsers keep them a year.
"""
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

BROTLI_QUALITY = 7


class FasterBrotli(Compressor):
    """WhiteNoise's compressor, with brotli at :data:`BROTLI_QUALITY`."""

    @staticmethod
    def compress_brotli(data):
        import brotli

        return brotli.compress(data, quality=BROTLI_QUALITY)


class StaticStorage(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def create_compressor(self, **kwargs):
        return FasterBrotli(**kwargs)

    def hashed_name(self, name, content=None, filename=None):
        try:
            return super().hashed_name(name, content, filename)
        except ValueError:  # not collected yet
            return name
