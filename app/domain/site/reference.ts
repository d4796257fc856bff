/** A choice of a form's select or checkbox list: the item's id and its name in the reader's language. */
export type Choice = { value: string; label: string }
