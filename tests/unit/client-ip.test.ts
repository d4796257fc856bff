import { describe, expect, test } from 'vitest'
import { addressKey } from '~/utils/client-ip.server'

describe('the address rate limits count by', () => {
	test('is an IPv4 address as it is, and an IPv6 address its /64 network', () => {
		expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
		expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
		expect(addressKey('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3::/64')
		expect(addressKey('2001:db8:85a3:8d3::1')).toBe(addressKey('2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff'))
		expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(addressKey('::1')).toBe('0:0:0:0::/64')
		expect(addressKey('unknown')).toBe('unknown')
	})
})
