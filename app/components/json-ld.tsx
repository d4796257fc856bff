import { type JsonLdThing, jsonLdText } from '~/utils/json-ld'
import { useNonce } from '~/utils/nonce-provider'

/**
 * schema.org data in the page. A data block is never run, so the CSP does not apply to it; it
 * carries the response's nonce anyway, like every other script tag of the portal.
 */
export function JsonLd({ data }: { data: JsonLdThing | JsonLdThing[] }) {
	const nonce = useNonce()
	return <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
}
