/** The frame of the account forms (log in, register, forgotten and new password). */
export function AuthPanel({
	title,
	subtitle,
	children,
	aside,
	wide = false,
}: {
	title: string
	subtitle?: React.ReactNode
	children: React.ReactNode
	aside?: React.ReactNode
	wide?: boolean
}) {
	return (
		<div className={['container auth', aside ? 'auth--with-aside' : '', wide ? 'auth--wide' : ''].filter(Boolean).join(' ')}>
			<section className="card auth__card" aria-labelledby="auth-title">
				<h1 id="auth-title" className="auth__title">
					{title}
				</h1>
				{subtitle ? <p className="auth__subtitle">{subtitle}</p> : null}
				{children}
			</section>
			{aside ? <aside className="auth__aside">{aside}</aside> : null}
		</div>
	)
}

/**
 * Whom the visitor is on their way to ask for an offer (they pressed "Ask for an offer" on a
 * workshop's page), said above the login and registration forms.
 */
export function AskingWorkshopNote({ title, text }: { title: string; text: string }) {
	return (
		<div className="addressed" role="note">
			<p className="addressed__to">{title}</p>
			<p className="field__help">{text}</p>
		</div>
	)
}
