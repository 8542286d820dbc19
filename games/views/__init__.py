"""The views, thin function views by area: each parses the request, asks
`games.access` who may do it, calls a service or query, and renders a page or, for
an htmx request, the partial of that page it swaps. No view module imports another:
what several of them answer alike lives outside this package, in `games.http`
(redirects, downloads, the chart image), `games.statuses` (the status codes) and
`games.session_page` (the session page's context), forms in `games.forms`."""
