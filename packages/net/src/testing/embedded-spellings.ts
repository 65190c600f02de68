/**
 * IPv6 spellings that carry an IPv4 address, with the address carried and the form: every
 * caller of the policy must refuse each as it refuses the IPv4 address itself.
 */
export const embeddedSpellings = [
  ['::127.0.0.1', '127.0.0.1', 'IPv4-compatible, dotted'],
  ['::7f00:1', '127.0.0.1', 'IPv4-compatible, hex'],
  ['::ffff:127.0.0.1', '127.0.0.1', 'IPv4-mapped'],
  ['::ffff:0:127.0.0.1', '127.0.0.1', 'SIIT IPv4-translated'],
  ['2002:7f00:1::', '127.0.0.1', '6to4'],
  ['64:ff9b::7f00:1', '127.0.0.1', 'NAT64 well-known prefix'],
  ['64:ff9b:1::7f00:1', '127.0.0.1', 'NAT64 local-use prefix'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1', 'Teredo client'],
  ['::a9fe:a9fe', '169.254.169.254', 'IPv4-compatible metadata'],
  ['::ffff:0:a9fe:a9fe', '169.254.169.254', 'SIIT metadata'],
  ['2002:a9fe:a9fe::', '169.254.169.254', '6to4 metadata'],
  ['64:ff9b:1::a00:1', '10.0.0.1', 'NAT64 local-use private'],
] as const;
