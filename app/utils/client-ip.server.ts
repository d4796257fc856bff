import { isIPv6 } from 'node:net'
import { type AppLoadContext } from 'react-router'

/**
 * The visitor's address as rate limits and the visitor count see it: the address Express saw
 * (TRUST_PROXY decides whether X-Forwarded-For counts), an IPv6 one reduced to its /64 network,
 * which one household or phone is given whole (else each of its addresses would be a new
 * visitor with fresh limits). Never stored raw.
 */
export function clientIp(context: AppLoadContext | undefined): string {
	return addressKey(context?.clientIp ?? 'unknown')
}

export function addressKey(address: string): string {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
	if (mapped) return mapped[1]!
	if (!isIPv6(address)) return address
	const [head = '', tail = ''] = address.split('::')
	const left = head ? head.split(':') : []
	const right = tail ? tail.split(':') : []
	const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
	return `${groups
		.slice(0, 4)
		.map((group) => Number.parseInt(group || '0', 16).toString(16))
		.join(':')}::/64`
}
