import { type Config } from '@react-router/dev/config'

// Server rendering, an ES module server build in build/server, the browser's in build/client;
// routes discovered as the browser needs them (React Router's default "lazy" discovery).
export default {
	ssr: true,
	buildDirectory: 'build',
	serverModuleFormat: 'esm',
} satisfies Config
