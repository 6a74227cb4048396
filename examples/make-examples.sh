#!/usr/bin/env bash
# Rebuilds examples/photos from the wallpapers of Debian 12's mate-backgrounds package.
# The result is committed; this script documents where every photo comes from and how it was
# made, so the folder can be reproduced (byte for byte with the same tool versions).
#
# Needs: apt-get install --no-install-recommends mate-backgrounds imagemagick libimage-exiftool-perl webp
#
# Photo (under examples/photos/)          Source (under /usr/share/backgrounds/mate/)     What was done
# Lady bird.jpg                           nature/LadyBird.jpg                              scaled; caption, date, artist
# Nature/Aqua.jpg                         nature/Aqua.jpg                                  scaled
# Nature/Dune.jpg                         nature/Dune.jpg                                  scaled; caption (with "&"), date, artist
# Nature/Green meadow.jpg                 nature/GreenMeadow.jpg                           as is (1280 px wide)
# Nature/Rain drops.jpg                   nature/RainDrops.jpg                             scaled
# Nature/Storm.jpg                        nature/Storm.jpg                                 scaled; date only
# Nature/Flowers/Fleur jaune.jpg          nature/YellowFlower.jpg                          portrait crop; caption (non-ASCII), artist
# Nature/Flowers/Fresh flower.jpg         nature/FreshFlower.jpg                           portrait crop
# Nature/Flowers/Two wings.jpg            nature/TwoWings.jpg                              square crop
# Nature/Flowers/Garden (rotated).jpg     nature/Garden.jpg                                portrait crop, pixels stored turned 90° left, EXIF Orientation 6
# Abstract/Float (rotated).jpg            desktop/Float-into-MATE.png                      pixels stored turned 90° right, EXIF Orientation 8
# Abstract/Warm waves.png                 desktop/Ubuntu-Mate-Warm-no-logo.png             PNG, scaled to 1200 px
# Abstract/Cold waves.webp                desktop/Ubuntu-Mate-Cold-no-logo.png             WebP (cwebp -q 80)
# Abstract/Elephants strip.jpg            abstract/Elephants_3840x2160.jpg                 tall strip crop
# Abstract/Radioactive panorama.jpg       desktop/Ubuntu-Mate-Radioactive-no-logo.png      wide panorama crop
# Café/Wood.jpg                           nature/Wood.jpg                                  scaled (4:3)
# Café/Blinds.jpg                         nature/Blinds.jpg                                portrait crop
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

src=/usr/share/backgrounds/mate
out=photos
# ImageMagick's own convert: /usr/local/bin/convert may be a stand-in that only converts to PPM.
convert=/usr/bin/convert
for tool in "$convert" exiftool cwebp; do
  command -v "$tool" >/dev/null || { echo "make-examples.sh: $tool is missing (see the comment at the top)" >&2; exit 1; }
done
[[ -d $src/nature ]] || { echo "make-examples.sh: $src is missing: apt-get install mate-backgrounds" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/Nature/Flowers" "$out/Abstract" "$out/Café"

# jpeg SOURCE DEST [convert operators...]: the operators (crops, turns) first, then the long
# edge scaled down to at most 1600 px, no metadata at all, quality 85.
jpeg() {
  local from=$1 to=$2
  shift 2
  "$convert" "$from" -alpha remove -alpha off "$@" -resize '1600x1600>' -strip \
    -sampling-factor 2x2 -quality 85 "$to"
}

# exif FILE TAG=VALUE...: writes EXIF tags the way a camera or a photo manager would, and makes
# sure there is no GPS position in the file.
exif() {
  local file=$1
  shift
  exiftool -q -overwrite_original -gps:all= "$@" "$file"
}

jpeg "$src/nature/LadyBird.jpg"    "$out/Lady bird.jpg"
jpeg "$src/nature/Aqua.jpg"        "$out/Nature/Aqua.jpg"
jpeg "$src/nature/Dune.jpg"        "$out/Nature/Dune.jpg"
jpeg "$src/nature/GreenMeadow.jpg" "$out/Nature/Green meadow.jpg"
jpeg "$src/nature/RainDrops.jpg"   "$out/Nature/Rain drops.jpg"
jpeg "$src/nature/Storm.jpg"       "$out/Nature/Storm.jpg"

# Portrait and square crops for the nested album.
jpeg "$src/nature/YellowFlower.jpg" "$out/Nature/Flowers/Fleur jaune.jpg"   -gravity center -crop 42%x100%+0+0 +repage
jpeg "$src/nature/FreshFlower.jpg"  "$out/Nature/Flowers/Fresh flower.jpg"  -gravity center -crop 56%x100%+0+0 +repage
jpeg "$src/nature/TwoWings.jpg"     "$out/Nature/Flowers/Two wings.jpg"     -gravity center -crop 62.5%x100%+0+0 +repage

# Stored turned a quarter to the left, with EXIF Orientation 6 ("turn 90° clockwise to view"):
# it looks upright (a portrait) only if the generator applies the orientation.
jpeg "$src/nature/Garden.jpg" "$out/Nature/Flowers/Garden (rotated).jpg" \
  -gravity center -crop 42%x100%+0+0 +repage -rotate -90
exif "$out/Nature/Flowers/Garden (rotated).jpg" -n -Orientation=6

# Stored turned a quarter to the right, with EXIF Orientation 8 ("turn 90° anticlockwise to
# view"): upright it is a landscape.
jpeg "$src/desktop/Float-into-MATE.png" "$out/Abstract/Float (rotated).jpg" -rotate 90
exif "$out/Abstract/Float (rotated).jpg" -n -Orientation=8

# A PNG and a WebP.
"$convert" "$src/desktop/Ubuntu-Mate-Warm-no-logo.png" -alpha off -resize '1200x1200>' -strip \
  -define png:exclude-chunks=date,time "$out/Abstract/Warm waves.png"
"$convert" "$src/desktop/Ubuntu-Mate-Cold-no-logo.png" -alpha off -resize '1600x1600>' -strip \
  -define png:exclude-chunks=date,time png:- |
  cwebp -quiet -q 80 -metadata none -o "$out/Abstract/Cold waves.webp" -- -

# Extreme shapes: a tall strip and a wide panorama.
jpeg "$src/abstract/Elephants_3840x2160.jpg" "$out/Abstract/Elephants strip.jpg" \
  -gravity center -crop 26%x100%+0+0 +repage
jpeg "$src/desktop/Ubuntu-Mate-Radioactive-no-logo.png" "$out/Abstract/Radioactive panorama.jpg" \
  -gravity center -crop 100%x28%+0+0 +repage

# An album whose name is not ASCII.
jpeg "$src/nature/Wood.jpg"   "$out/Café/Wood.jpg"
jpeg "$src/nature/Blinds.jpg" "$out/Café/Blinds.jpg" -gravity center -crop 45%x100%+0+0 +repage

# Captions (ImageDescription), capture dates (DateTimeOriginal) and artists, as cameras and
# photo managers write them. The artists are the wallpapers' authors.
exif "$out/Lady bird.jpg" \
  -ImageDescription="A ladybird climbs a blade of grass" \
  -Artist="Charles Barbin" -DateTimeOriginal="2008:06:21 09:14:00"
exif "$out/Nature/Dune.jpg" \
  -ImageDescription="Dune grass & the sea" \
  -Artist="Marco Cogoni" -DateTimeOriginal="2007:08:02 18:30:00"
exif "$out/Nature/Storm.jpg" -DateTimeOriginal="2008:09:11 16:05:00"
exif "$out/Nature/Flowers/Fleur jaune.jpg" \
  -ImageDescription="Fleur jaune — a yellow flower, seen close" -Artist="Charles Barbin"

# Camera settings (invented for the example), shown on the photo's page and in the lightbox.
exif "$out/Lady bird.jpg" -Make=Canon -Model="Canon EOS 5D" -LensModel="EF100mm f/2.8 Macro USM" \
  -FocalLength=100 -FNumber=8 -ExposureTime=1/200 -ISO=200 -ExposureCompensation=-0.3

# sidecar FILE TITLE RATING KEYWORD...: an XMP sidecar as Lightroom (IMG.xmp) or darktable
# (IMG.jpg.xmp) writes one; an empty TITLE or RATING is left out. A keyword A|B|C is
# hierarchical: it goes to lr:hierarchicalSubject, and its levels to dc:subject, as Lightroom
# writes them (the site shows C only). The keywords make the tag pages (tags/).
sidecar() {
  local file=$1 title=$2 rating=$3 flat="" tree="" keyword level
  shift 3
  for keyword in "$@"; do
    if [[ $keyword == *"|"* ]]; then
      tree+="<rdf:li>$keyword</rdf:li>"
      IFS='|' read -ra levels <<<"$keyword"
      for level in "${levels[@]}"; do flat+="<rdf:li>$level</rdf:li>"; done
    else
      flat+="<rdf:li>$keyword</rdf:li>"
    fi
  done
  {
    echo '<x:xmpmeta xmlns:x="adobe:ns:meta/">'
    echo ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    echo '  <rdf:Description rdf:about=""'
    echo '    xmlns:dc="http://purl.org/dc/elements/1.1/"'
    echo '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"'
    echo "    xmlns:lr=\"http://ns.adobe.com/lightroom/1.0/\"${rating:+ xmp:Rating=\"$rating\"}>"
    [[ -n $title ]] && echo "   <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">$title</rdf:li></rdf:Alt></dc:title>"
    echo "   <dc:subject><rdf:Bag>$flat</rdf:Bag></dc:subject>"
    [[ -n $tree ]] && echo "   <lr:hierarchicalSubject><rdf:Bag>$tree</rdf:Bag></lr:hierarchicalSubject>"
    echo '  </rdf:Description>'
    echo ' </rdf:RDF>'
    echo '</x:xmpmeta>'
  } >"$file"
}

sidecar "$out/Lady bird.xmp"                  "Ladybird"     5 nature insect "Animals|Insects|ladybird"
sidecar "$out/Nature/Dune.xmp"                "Dune at dusk" 4 nature sand sea
sidecar "$out/Nature/Aqua.jpg.xmp"            ""             "" nature water
sidecar "$out/Nature/Storm.xmp"               ""             "" sea sky
sidecar "$out/Nature/Flowers/Fleur jaune.xmp" ""             "" nature flower yellow
sidecar "$out/Nature/Flowers/Two wings.xmp"   ""             "" nature flower insect
sidecar "$out/Café/Wood.xmp"                  ""             "" texture
sidecar "$out/Café/Blinds.xmp"                ""             "" texture

find "$out" -type f | LC_ALL=C sort
du -sh "$out"
