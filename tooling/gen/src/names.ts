/** The names one generated package uses, from its kebab-case name (`status-page`). */
export interface Names {
  /** `status-page` */
  kebab: string;
  /** `statusPage` */
  camel: string;
  /** `StatusPage` */
  pascal: string;
  /** `Status page` */
  title: string;
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The names of `name`; throws unless it is lowercase kebab-case of at most 40 characters. */
export function namesOf(name: string): Names {
  if (name.length > 40 || !KEBAB.test(name)) {
    throw new Error(`"${name}" is not a lowercase kebab-case name (letters, digits, dashes)`);
  }
  const words = name.split('-');
  const capitalised = words.map((word) => word[0]!.toUpperCase() + word.slice(1));
  return {
    kebab: name,
    camel: words[0]! + capitalised.slice(1).join(''),
    pascal: capitalised.join(''),
    title: [capitalised[0], ...words.slice(1)].join(' '),
  };
}
