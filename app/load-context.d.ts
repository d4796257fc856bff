import 'react-router'

declare module 'react-router' {
	interface AppLoadContext {
		/** The CSP nonce of this response (server/index.ts). */
		cspNonce?: string
		/** The client's IP address, honouring TRUST_PROXY (server/index.ts). */
		clientIp?: string
	}
}

interface ImportMetaEnv {
	/** True in the browser's production build, which runs on Preact (vite.config.ts). */
	readonly PREACT: boolean
}
