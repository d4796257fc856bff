/**
 * The JSON API's answers to pages on other origins (partner sites, the widgets): readable by any
 * origin without credentials, and a limit's `Retry-After` readable too (browsers expose only the
 * safelisted headers unless told; decision 0154).
 */
export function withApiCors(headers: Headers): Headers {
	headers.set('Access-Control-Allow-Origin', '*')
	if (headers.has('Retry-After')) headers.set('Access-Control-Expose-Headers', 'Retry-After')
	return headers
}
