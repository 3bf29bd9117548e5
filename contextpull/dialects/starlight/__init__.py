"""The Astro Starlight dialect (issue 36): asides, Starlight's components in MDX and Markdoc, and Markdoc's ``.mdoc`` pages."""
