// Common English words of four to eleven letters, for the letter-count task: words a small chat model has seen often,
// so what it has to learn is counting, not spelling. Written out here (no word list reaches these machines).
export const COMMON_WORDS: readonly string[] = `
about above accept across action active actor address admit adult advice afraid after again agent agree ahead alarm album
alcohol alive allow almost alone along already always amount animal answer anyone apart apple april area argue arrive
artist attack autumn avoid award aware baby back bacon badge balance ball balloon banana band bank barrel basket battle
beach beauty because become bedroom before begin behind believe belly berry better between bicycle birthday biscuit black
blanket blood bloom board boat body bottle bottom bread breakfast bridge bright brother brown bubble bucket budget
building butter button cabbage cable camera campus candle candy canvas captain carpet carrot castle cattle ceiling
center chair chalk change cheese cherry chicken child chimney choice church circle citizen classic clean climb clock
cloud coffee collect college color comfort common copper corner cotton country couple course cousin cover crazy cream
credit crowd crystal culture current curtain cycle daily damage dance danger daughter debate decide deliver dentist
desert design dinner doctor dollar donkey double dragon drawer dream dress driver eagle early earth effort eight
elbow eleven empty energy engine enough entry equal error escape evening event every exact example expert family
famous farmer father feather fellow fence festival fever field fifteen finger finish flower follow forest forget
fossil fourteen freedom fresh friend frozen fruit funny future galaxy garden garlic gentle giraffe glass global
glove golden gossip grape grass gravity green guitar hammer happy harbor health heart heavy hello helmet history
hobby holiday honey horse hospital hotel hundred hungry husband island jacket jelly jungle kettle kitchen kitten
ladder language laptop lemon letter level library light little lizard lobby market marriage matter meadow melon
memory middle million minute mirror mistake moment money monkey morning mother mountain muffin museum music narrow
nature needle nephew noodle number ocean office orange oven paddle palace panda paper parrot party pebble pencil
pepper person picnic pillow planet pocket potato puppy purple puzzle rabbit rainbow rattle recipe river rocket
rubber saddle salad school scissors season second seven shadow shallow shell silver simple sister sleep slipper
smile soccer spoon spring square squirrel staff street summer sunny supper sweet table tennis thirteen thirty
ticket tiger tomato tooth towel tower travel tree trouble turtle umbrella uncle valley village violin volcano
wagon walnut water weather wedding window winter wizard wonder yellow yesterday zebra zipper letterbox coffee
tattoo assessment committee mississippi strawberry bookkeeper engineer referee cheetah raccoon broccoli accessory
address embarrass possess success pizza puzzle jazz buzzer vacuum llama sheep kayak level radar refer rotor civic
`
  .split(/\s+/)
  .filter((word, index, all) => word !== "" && all.indexOf(word) === index);
