import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { MAX_BODY_BYTES } from '~/utils/http'
import { SESSION_COOKIE } from '~/utils/http-cache'

/**
 * The deployment files (Dockerfile, compose.yaml, deploy/nginx.conf; docs/decisions/0140) stay in
 * step with the portal: every command they run is one of package.json's scripts, the image's Node is
 * one the engines allow, and nginx knows the session cookie and the body limit the app uses. Read as
 * text: no container daemon, no nginx needed (the scaled-out e2e test runs nginx.conf for real).
 */
const root = path.resolve(__dirname, '../..')
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')
const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines?: { node?: string } }
const dockerfile = read('Dockerfile')
const compose = read('compose.yaml')
const nginx = read('deploy/nginx.conf')
/** Lines that are not comments. */
const code = (text: string) => text.split('\n').filter((line) => !/^\s*#/.test(line)).join('\n')

/** Each `npm run <script>` / `npm start` / `npm test` a text runs, in shell form or as a JSON/YAML list. */
function npmScripts(text: string) {
	const scripts = new Set<string>()
	for (const [, name] of code(text).matchAll(/\bnpm"?,?\s*"?run"?,?\s*"?([\w:.-]+)/g)) scripts.add(name!)
	for (const [, name] of code(text).matchAll(/\bnpm"?,?\s*"?(start|test|stop|restart)\b/g)) scripts.add(name!)
	return scripts
}

describe('the commands the image and compose run', () => {
	test('are scripts of package.json', () => {
		const used = new Set([...npmScripts(dockerfile), ...npmScripts(compose)])
		// What the brief of the image promises: the web process, the worker, the release step and the build.
		for (const expected of ['start', 'worker', 'db:migrate', 'build']) expect(used, expected).toContain(expected)
		for (const script of used) expect(Object.keys(packageJson.scripts), `npm run ${script}`).toContain(script)
	})

	test('the image runs `npm start` as an unprivileged user, built once with the production install CI checks', () => {
		expect(code(dockerfile)).toMatch(/^CMD \["npm", "start"\]$/m)
		const users = [...code(dockerfile).matchAll(/^USER (\S+)/gm)].map((match) => match[1])
		expect(users.at(-1)).not.toMatch(/^(root|0)$/)
		expect(users.length).toBeGreaterThan(0)
		expect(code(dockerfile)).toMatch(/npm ci --omit=dev/)
		expect(code(dockerfile).match(/npm run build/g)).toHaveLength(1)
		// What scripts/check-production-install.mjs copies beside the sources and packages.
		for (const built of ['build', 'server-build', 'public/widgets']) expect(code(dockerfile)).toContain(`COPY --from=build /app/${built} ./${built}`)
	})

	test("every web process in compose runs no jobs, and nginx lists each of them", () => {
		const services = [...compose.matchAll(/^ {2}([\w-]+):\n((?: {4}.*\n|\n)*)/gm)].map(([, name, body]) => ({ name: name!, body: body! }))
		const web = services.filter((service) => /<<: \*web\b/.test(service.body))
		expect(web.map((service) => service.name)).toEqual(['web-1', 'web-2'])
		const webAnchor = compose.slice(compose.indexOf('x-web: &web'), compose.indexOf('\nservices:'))
		expect(webAnchor).toMatch(/RUN_JOBS: "false"/)
		const upstream = /^\tupstream autohub \{([\s\S]*?)^\t\}/m.exec(nginx)?.[1] ?? ''
		for (const { name } of web) expect(upstream).toMatch(new RegExp(`^\\s*server ${name}:3000\\b`, 'm'))
		expect(services.map((service) => service.name)).toEqual(expect.arrayContaining(['postgres', 'minio', 'migrate', 'worker', 'nginx']))
	})
})

test("the image's Node is one package.json's engines allow", () => {
	const image = /^ARG NODE_IMAGE=node:(\d+)[\w.-]*$/m.exec(dockerfile)
	expect(image, 'ARG NODE_IMAGE=node:<major>…').not.toBeNull()
	const major = Number(image![1])
	const minimum = /^>=\s*(\d+)/.exec(packageJson.engines?.node ?? '')
	expect(minimum, 'engines.node is ">=N…"').not.toBeNull()
	// The major the engines name, the one CI and the README's install use: a raise of the engines
	// (say to 22 for OpenTelemetry 3.x) must move the image with it.
	expect(major).toBe(Number(minimum![1]))
	if (fs.existsSync(path.join(root, '.nvmrc'))) expect(read('.nvmrc').trim().replace(/^v/, '').split('.')[0]).toBe(String(major))
})

describe('deploy/nginx.conf', () => {
	test('knows the session cookie: never served from the cache, never kept', () => {
		const map = /map \$http_cookie \$autohub_session \{([\s\S]*?)\}/.exec(nginx)?.[1] ?? ''
		expect(map).toContain(`"~(^|;)\\s*${SESSION_COOKIE}=" 1;`)
		expect(nginx).toMatch(/proxy_cache_bypass [^;]*\$autohub_session/)
		expect(nginx).toMatch(/proxy_no_cache [^;]*\$autohub_session/)
	})

	test("takes bodies as large as the app reads", () => {
		const size = /client_max_body_size (\d+)([kmg]?);/.exec(nginx)
		expect(size).not.toBeNull()
		const bytes = Number(size![1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[size![2] as '' | 'k' | 'm' | 'g']
		expect(bytes).toBe(MAX_BODY_BYTES)
	})

	test('passes the request id and the client, and retries no request that reached a process', () => {
		expect(nginx).toMatch(/proxy_set_header X-Request-Id \$request_id;/)
		expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/)
		expect(nginx).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/)
		expect(nginx).toMatch(/add_header X-Cache-Status \$upstream_cache_status always;/)
		const next = /^\s*proxy_next_upstream ([^;]*);/m.exec(code(nginx))?.[1] ?? ''
		expect(next.split(/\s+/)).toEqual(expect.arrayContaining(['error', 'timeout', 'http_503']))
		expect(next).not.toContain('non_idempotent')
	})

	test('the copy the scaled-out test makes changes the upstream block and the listen line only', () => {
		expect(nginx.match(/^\tupstream autohub \{/gm)).toHaveLength(1)
		expect(nginx.match(/^\t\tlisten 80;$/gm)).toHaveLength(1)
		// Relative to the prefix (-p), so a copy runs anywhere: no absolute path but the log's.
		const absolute = [...code(nginx).matchAll(/(?:^|\s)(\/[\w./-]+)/g)].map((match) => match[1])
		expect(absolute).toEqual(['/dev/stdout'])
		expect(code(nginx)).not.toMatch(/^\s*user\s/m)
		expect(code(nginx)).not.toMatch(/^\s*daemon\s/m)
	})
})
