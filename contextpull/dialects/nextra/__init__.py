"""The Nextra dialect (issue 36): Next.js sites built with Nextra 2-4, their MDX components and
``_meta`` navigation."""
