"""What leaves and enters the app as files: CSV/XLSX tables (``tables``), the league
file's format (``league_file``), its export (``league_export``) and import
(``league_import``)."""
