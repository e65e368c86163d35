// Exercises semver's API, from the root of the package it is copied into
// (test/refactor/systematic_langs.py --run): what it prints must not change
// when a function is renamed.
'use strict'
const semver = require('./index.js')

const out = []
const show = (label, f) => {
  try {
    out.push(label + ' ' + JSON.stringify(f()))
  } catch (e) {
    out.push(label + ' threw ' + e.constructor.name)
  }
}
const versions = ['1.2.3', '1.2.4-beta.1', '2.0.0', '0.9.9', '1.10.0', 'v3.1.0+build.5']
show('parse', () => semver.parse('1.2.3-alpha.1+b').format())
show('valid', () => versions.map((v) => semver.valid(v)))
show('clean', () => semver.clean('  =v1.2.3  '))
show('inc', () => ['major', 'minor', 'patch', 'prerelease', 'premajor'].map((r) => semver.inc('1.2.3', r, 'rc')))
show('diff', () => semver.diff('1.2.3', '1.3.0-rc.1'))
show('parts', () => [semver.major('2.3.4'), semver.minor('2.3.4'), semver.patch('2.3.4'), semver.prerelease('1.0.0-a.2')])
show('compare', () => [semver.compare('1.2.3', '1.2.4'), semver.rcompare('1.2.3', '1.2.4'), semver.compareLoose('1.2.3', '1.2.3'), semver.compareBuild('1.0.0+a', '1.0.0+b')])
show('sort', () => [semver.sort(versions.slice(0, 5)), semver.rsort(versions.slice(0, 5))])
show('cmp', () => ['<', '<=', '>', '>=', '==', '!=', '===', '!=='].map((op) => semver.cmp('1.2.3', op, '1.2.4')))
show('ops', () => [semver.gt('2.0.0', '1.0.0'), semver.lt('1.0.0', '2.0.0'), semver.eq('1.0.0', '1.0.0'), semver.neq('1.0.0', '1.0.1'), semver.gte('1.0.0', '1.0.0'), semver.lte('1.0.0', '1.0.0')])
show('coerce', () => [semver.coerce('v2'), semver.coerce('3.4.5.6', { rtl: true }), semver.coerce('1.2.3-pre+b', { includePrerelease: true })].map(String))
show('satisfies', () => versions.map((v) => semver.satisfies(v, '^1.2.0 || >=3.0.0', { includePrerelease: true })))
show('range', () => new semver.Range('~1.2 || 2.x - 3.1').format())
show('max', () => [semver.maxSatisfying(versions, '1.x'), semver.minSatisfying(versions, '>=1.0.0')])
show('minVersion', () => String(semver.minVersion('>1.2.3 <2.0.0')))
show('validRange', () => [semver.validRange('1.x || >=2.5.0'), semver.validRange('blah')])
show('outside', () => [semver.outside('3.0.0', '1.x', '>'), semver.gtr('3.0.0', '1.x'), semver.ltr('0.1.0', '1.x')])
show('intersects', () => [semver.intersects('1.x', '>=1.5.0'), semver.intersects('<1.0.0', '>2.0.0')])
show('simplify', () => semver.simplifyRange(versions, '1.2.3 || 1.2.4-beta.1 || 1.10.0'))
show('subset', () => [semver.subset('1.2.x', '1.x'), semver.subset('>=1.0.0', '^1.0.0'), semver.subset('1.2.3-pre', '1.x', { includePrerelease: true })])
show('comparators', () => semver.toComparators('1.x || 2.0.0 - 2.1.0'))
show('comparator', () => { const c = new semver.Comparator('>=1.2.3'); return [c.test('1.3.0'), c.intersects(new semver.Comparator('<1.5.0')), String(c)] })
show('semver', () => { const v = new semver.SemVer('1.2.3-beta.4'); v.inc('prerelease'); return [v.version, v.compare('1.2.3'), v.comparePre('1.2.3-beta.9'), v.compareMain('1.2.3')] })
show('truncate', () => typeof semver.truncate === 'function' ? semver.truncate('1.2.3-x', 'minor') : 'none')
console.log(out.join('\n'))
