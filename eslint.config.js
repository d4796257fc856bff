import js from '@eslint/js'
import i18next from 'eslint-plugin-i18next'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The domain's areas (app/domain/<area>/README.md). An area keeps some modules to itself: no other
 * area, route or helper imports them. Inside app/domain, another area is imported by its `~/domain/…`
 * path, never by `../`, so that every crossing is visible.
 */
const areas = ['accounts', 'admin', 'api', 'billing', 'booking', 'directory', 'insights', 'messaging', 'partners', 'pricing', 'privacy', 'service-flow', 'site']
const areaInternals = { billing: ['invoice-pdf.server', 'e-invoice-xml.server', 'payments.server'] }
const internalsOf = (except) =>
	Object.entries(areaInternals)
		.filter(([area]) => area !== except)
		.flatMap(([area, modules]) => modules.map((module) => `~/domain/${area}/${module}`))
const boundaryRule = (except, extraPatterns = []) => [
	'error',
	{
		paths: internalsOf(except).map((name) => ({ name, message: 'This module is internal to its area: use what the area exposes (see its README).' })),
		patterns: extraPatterns,
	},
]

export default tseslint.config(
	{
		ignores: ['build/**', 'server-build/**', 'public/widgets/**', 'node_modules/**', 'playwright-report/**', 'test-results/**', 'tests/.tmp/**', 'data/**', '.react-router/**'],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		rules: {
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-syntax': [
				'error',
				{
					// The CSP forbids inline styles: use a class from app/styles.
					selector: "JSXAttribute[name.name='style']",
					message: 'No inline styles: the Content-Security-Policy blocks them. Use a CSS class.',
				},
			],
		},
	},
	{
		files: ['app/**/*.tsx', 'widgets/**/*.tsx'],
		plugins: { 'react-hooks': reactHooks, i18next },
		rules: {
			...reactHooks.configs.recommended.rules,
			// Every text in three languages: no words written straight into the markup.
			'i18next/no-literal-string': ['error', { mode: 'jsx-text-only' }],
		},
	},
	{ files: ['app/**/*.tsx', 'widgets/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
	{
		// Pages ask the status model (app/domain/service-flow/status.ts); they do not compare statuses.
		files: ['app/routes/**', 'app/components/**'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector: "JSXAttribute[name.name='style']",
					message: 'No inline styles: the Content-Security-Policy blocks them. Use a CSS class.',
				},
				{
					selector:
						"BinaryExpression[operator=/^[!=]==?$/][right.value=/^(pending|offer|in_progress|completed|cancelled|selected|rejected|job_completed|request_cancelled|pending_payment|active|expired|replaced|paid|failed)$/]:matches([left.property.name=/status$/i], [left.name=/status$/i])",
					message: 'Ask the status model (app/domain/service-flow/status.ts or the area module) instead of comparing status strings.',
				},
			],
		},
	},
	{ files: ['app/**', 'server/**', 'scripts/**'], rules: { 'no-restricted-imports': boundaryRule(null) } },
	{
		// Small helpers and web glue only: the domain builds on them, never the other way (issue 31);
		// so does the OpenID glue of eID sign-in (app/identity, decision 0150).
		files: ['app/utils/**', 'app/identity/**'],
		rules: {
			'no-restricted-imports': boundaryRule(null, [
				{ group: ['~/domain/*', '~/domain/**', '../domain/*', '../domain/**'], message: 'app/utils imports nothing from app/domain: move the helper to the area that owns it, or the shared type down here.' },
			]),
		},
	},
	...areas.map((area) => ({
		files: [`app/domain/${area}/**`],
		rules: {
			'no-restricted-imports': boundaryRule(area, [
				{ group: ['../*', '../**'], message: 'Import another area by its ~/domain/<area>/<module> path.' },
			]),
		},
	})),
	{
		files: ['tests/**', 'scripts/**'],
		rules: { 'no-console': 'off' },
	},
	{
		// E-mail HTML is read by mail programs, not served under our CSP, and they need inline styles.
		files: ['app/domain/messaging/email-layout.server.tsx'],
		rules: { 'no-restricted-syntax': 'off' },
	},
)
