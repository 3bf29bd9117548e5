"""The Mintlify dialect (issue 36): ``docs.json`` (or the older ``mint.json``) sites."""
