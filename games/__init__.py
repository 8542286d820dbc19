"""The scorekeeper app: the rules service (`rules/`), its models, who may do what
(`access`), use cases (`services/`), read models (`queries/`), files in and out
(`transfer/`), forms, views and the one URLconf. docs/inside/index.md maps it."""
