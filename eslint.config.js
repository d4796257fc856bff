import js from '@eslint/js'
import i18next from 'eslint-plugin-i18next'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{
		ignores: ['build/**', 'server-build/**', 'public/widgets/**', 'node_modules/**', 'playwright-report/**', 'test-results/**', 'tests/.tmp/**', 'data/**'],
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
		files: ['tests/**', 'scripts/**'],
		rules: { 'no-console': 'off' },
	},
)
