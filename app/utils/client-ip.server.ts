import { type AppLoadContext } from '@remix-run/node'

/**
 * The visitor's address as Express saw it (TRUST_PROXY decides whether X-Forwarded-For counts).
 * Used for rate limits; never stored raw.
 */
export function clientIp(context: AppLoadContext | undefined): string {
	return context?.clientIp ?? 'unknown'
}
