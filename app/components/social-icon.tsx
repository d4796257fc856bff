export type SocialNetwork = 'facebook' | 'twitter' | 'instagram' | 'linkedin'

const paths: Record<SocialNetwork, string> = {
	facebook:
		'M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H7.9v3h2.6V21z',
	twitter: 'M4 4h4.6l3.7 5.1L16.6 4H20l-6.1 7 6.5 9h-4.6l-4-5.5L7 20H3.6l6.5-7.4z',
	instagram:
		'M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm4.9-8.9a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 0 0 0-2.2zM12 4.6c2.4 0 2.7 0 3.6.1 2.4.1 3.6 1.3 3.7 3.7.1 1 .1 1.2.1 3.6s0 2.7-.1 3.6c-.1 2.4-1.3 3.6-3.7 3.7-1 .1-1.2.1-3.6.1s-2.7 0-3.6-.1c-2.4-.1-3.6-1.3-3.7-3.7-.1-1-.1-1.2-.1-3.6s0-2.7.1-3.6C4.7 6 5.9 4.8 8.4 4.7c.9-.1 1.2-.1 3.6-.1z',
	linkedin:
		'M6.9 8.9H3.8V20h3.1zM5.3 3.9a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6zM20.2 13.6c0-3-1.6-4.9-4.2-4.9-1.5 0-2.5.8-2.9 1.6V8.9H10V20h3.1v-5.8c0-1.5.6-2.6 2-2.6s1.9 1.1 1.9 2.6V20h3.2z',
}

export function SocialIcon({ network }: { network: SocialNetwork }) {
	return (
		<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
			<path d={paths[network]} fill="currentColor" />
		</svg>
	)
}
