/** The title row of a signed-in page: the page title (spec §2), a line under it, actions on the right. */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: React.ReactNode; actions?: React.ReactNode }) {
	return (
		<div className="page-header">
			<div>
				<h1 className="page-header__title">{title}</h1>
				{subtitle ? <p className="page-header__subtitle">{subtitle}</p> : null}
			</div>
			{actions ? <div className="page-header__actions">{actions}</div> : null}
		</div>
	)
}

/** A public page (the directory, the contact page): its breadcrumbs, heading and lead line above the content. */
export function PublicPage({ title, lead, breadcrumbs, children }: { title: string; lead: string; breadcrumbs?: React.ReactNode; children: React.ReactNode }) {
	return (
		<div className="container page-section">
			{breadcrumbs}
			<header className="page-heading">
				<h1>{title}</h1>
				<p className="page-heading__lead">{lead}</p>
			</header>
			{children}
		</div>
	)
}
